"""Session 8 (judg5): health heads in the plural, the psychiatrist a person sees, a maternity
leave; and the topics next to them that stay ordinary."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.sensitive import SensitiveCategory, structural_categories


@pytest.mark.parametrize(
    "text",
    [
        "Weekly sessions at the eating disorders unit on Wednesdays.",
        "Séances hebdomadaires à l'unité troubles alimentaires le mercredi.",
        "Tiene dos trastornos del sueño diagnosticados.",
        "Sedute settimanali al centro per i disturbi alimentari il mercoledì.",
        "Geht monatlich zum Psychiater, ersten Donnerstag freihalten.",
        "Voit son psychiatre tous les mois.",
        "Va dallo psichiatra una volta al mese.",
        "Maternity leave starts in three weeks; hand over the client accounts.",
        "Il congedo di maternità inizia tra tre settimane.",
    ],
)
def test_the_structure_reads_health_in_these_shapes(text: str) -> None:
    assert SensitiveCategory.HEALTH in structural_categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Studies the history of psychiatry for a master's thesis.",
        "Bei Störungen möchte sie sofort die Lösung, ohne lange Einleitung.",
        "Had car trouble last winter, now drives a newer model.",
    ],
)
def test_a_topic_or_an_outage_is_not_health(text: str) -> None:
    assert not structural_categories(text)
