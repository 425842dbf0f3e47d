"""A note that draws its own conclusion from a source or a habit it names is a guess, whoever
declares it (``core/judgment/rules.py``, :func:`is_drawn_conclusion`); a source that is a
person, a time, an update or a mapping are not."""

from __future__ import annotations

import pytest

from memory_service.core.judgment import judge
from memory_service.core.judgment.rules import is_drawn_conclusion
from memory_service.core.model import Durability, ReasonCode, Source

DRAWN = (
    "Given the size of the weekly orders, big family.",
    "Judging by the late-night logins, works nights.",
    "Vu le montant des pourboires, client aisé.",
    "Visto el tipo de reservas, viaja por trabajo.",
    "Anhand der Bestellungen: Hundebesitzer.",
    "A giudicare dagli acquisti, ha un neonato.",
    "Buys nappies every week -> has a baby.",
    "Kauft jede Woche Windeln -> hat ein Baby.",
)
KEPT = (
    "Según la usuaria, está muy contenta con el plan.",  # the user's word, reported
    "D'après ses propres mots, travaille de nuit : pas d'appels avant 14h.",
    "From now on, prefers calls after 6pm.",  # a time, not a source
    "Switched from iPhone -> Android.",  # an update
    "Plan upgraded: 10GB -> 50GB.",  # a field and its new value
    "Assurance auto : conducteur secondaire = son conjoint.",  # a mapping
    "Works from home on Fridays, so Friday deliveries suit best.",  # a fact and its use
)


@pytest.mark.parametrize("text", DRAWN)
def test_a_conclusion_the_user_states_from_evidence_is_speculative(text: str) -> None:
    assert is_drawn_conclusion(text)
    verdict = judge(text, Durability.DURABLE, source=Source.USER_STATED)
    assert ReasonCode.SPECULATIVE in {reason.code for reason in verdict.refuse}


@pytest.mark.parametrize("text", KEPT)
def test_a_reported_word_a_time_an_update_or_a_mapping_is_no_conclusion(text: str) -> None:
    assert not is_drawn_conclusion(text)
