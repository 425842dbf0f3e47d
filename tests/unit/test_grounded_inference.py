"""A note the agent declares ``model_inferred`` is a hypothesis, kept and labelled as one; given
with the evidence it was drawn from, it is a speculation (``core/judgment/rules.py``)."""

from __future__ import annotations

import pytest

from memory_service.core.judgment import judge
from memory_service.core.judgment.rules import is_grounded_inference
from memory_service.core.model import Durability, ReasonCode, Source

GROUNDED = (
    "Owns a cat (orders litter every fortnight).",
    "Travaille de nuit (se connecte toujours vers 3 h).",
    "Es estudiante: pide siempre el descuento joven.",
    "Hat Kinder; kauft jede Woche Windeln.",
    "Rides to work \u2014 asks for bike parking at every office.",
    "Buys dog food every week -> has a dog.",
    "Orders for four every Friday, so a family of four.",
    "Given the weekday bookings, travels for work.",
)
PLAIN = (
    "Prefers trains.",
    "Works in finance.",
    "Aime le jazz.",
    "Spricht Italienisch.",
    "Owns an electric car.",
)


@pytest.mark.parametrize("text", GROUNDED)
def test_an_inference_given_with_its_grounds_is_speculative(text: str) -> None:
    assert is_grounded_inference(text)
    verdict = judge(text, Durability.DURABLE, source=Source.MODEL_INFERRED)
    assert ReasonCode.SPECULATIVE in {reason.code for reason in verdict.refuse}


@pytest.mark.parametrize("text", PLAIN)
def test_a_plain_hypothesis_is_kept(text: str) -> None:
    assert not is_grounded_inference(text)
    verdict = judge(text, Durability.DURABLE, source=Source.MODEL_INFERRED)
    assert ReasonCode.SPECULATIVE not in {reason.code for reason in verdict.refuse}


@pytest.mark.parametrize("text", GROUNDED[1:4])
def test_the_same_text_stated_by_the_user_is_not_refused_by_this_rule(text: str) -> None:
    # The rule reads the caller's declaration: the same words stated by the user (texts the
    # learned model alone does not refuse) are kept, and only the declaration refuses them.
    stated = judge(text, Durability.DURABLE, source=Source.USER_STATED)
    inferred = judge(text, Durability.DURABLE, source=Source.MODEL_INFERRED)
    assert stated.refuse == ()
    assert [reason.code for reason in inferred.refuse] == [ReasonCode.SPECULATIVE]
