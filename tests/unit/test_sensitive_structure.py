"""Health by structure: medical morphology, INN drug stems, disability and aid words, a
treatment frame, in the five languages; and the look-alikes those shapes must leave alone.

The probe (``data/sensitive/probe/health_structure.jsonl``) holds conditions told clinically
and in everyday words, and notes that only look medical ("Python", "works in a hospital",
"volunteers for the blind", "statistics", "Camembert").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_service.core.privacy.sensitive import SensitiveCategory, structural_categories

PROBE = (
    Path(__file__).resolve().parents[2] / "data" / "sensitive" / "probe" / "health_structure.jsonl"
)
ROWS = [json.loads(line) for line in PROBE.read_text(encoding="utf-8").splitlines() if line]
HEALTH = [row["text"] for row in ROWS if row["health"]]
LOOKALIKES = [row["text"] for row in ROWS if not row["health"]]
# The structure alone; the learned model reads the rest (a wheelchair told as "en fauteuil",
# a German native compound such as "Gallenblasenentfernung").
MIN_RECALL = 0.95


def test_the_probe_covers_five_languages_and_both_sides() -> None:
    assert len(ROWS) >= 80
    assert {row["lang"] for row in ROWS} == {"en", "fr", "es", "de", "it"}
    assert len(LOOKALIKES) >= 40


def test_most_conditions_told_clinically_or_colloquially_are_health_by_structure() -> None:
    found = [text for text in HEALTH if SensitiveCategory.HEALTH in structural_categories(text)]

    assert len(found) / len(HEALTH) >= MIN_RECALL, sorted(set(HEALTH) - set(found))


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_look_alike_is_not_a_special_category(text: str) -> None:
    assert structural_categories(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Sordera parcial en el oído derecho.",  # a condition noun
        "Malvoyant, préfère les documents en gros caractères.",
        "Ist gehörlos und kommuniziert in Gebärdensprache.",
        "Takes apixaban twice a day.",  # INN stem -xaban
        "Nimmt täglich Metoprolol.",  # -olol
        "Prende l'eparina ogni sera.",  # -parin with the Italian ending
        "Dialysepatient, dreimal pro Woche.",  # a German compound of "patient"
        "On PrEP since last year.",  # a treatment acronym in its own case
        "Uses a hearing aid in both ears.",  # an aid the person wears
        "Ha una tendinite alla spalla.",  # combining form + -ite
        "Hat Arthrose im Knie.",  # combining form + -ose
        "Takes 50 mg of sertraline every morning.",  # a dose
        "Vermutlich depressiv.",  # a guessed condition is still one
    ],
)
def test_the_shapes_each_find_health(text: str) -> None:
    assert SensitiveCategory.HEALTH in structural_categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sells hearing aids for a living.",  # the aid without a person wearing it
        "Designs prosthetic hands as a mechanical engineer.",
        "Emmène sa mère à la dialyse le lundi.",  # "to the dialysis", not "on dialysis"
        "Vola due volte a settimana da Fiumicino.",  # not -micin
        "Chiama il centralino.",
        "La dinamica del sinistro è poco chiara.",  # not -emia
        "Cherche un financement islamique.",
        "El control de PEP salta porque su tía es alcaldesa.",  # a politically exposed person
        "Went to the Académie des beaux-arts.",
        "Ha tanta nostalgia di casa.",
        "Has a lot of sympathy for the team.",
        "Works as an osteopath.",
        "Escucha un ruido sordo en el motor.",
    ],
)
def test_the_shapes_leave_their_look_alikes(text: str) -> None:
    assert SensitiveCategory.HEALTH not in structural_categories(text)
