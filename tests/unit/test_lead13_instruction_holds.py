"""An agent's ``confirmed: true`` settles a held guess or passing state, never a held
instruction (services/notes.py ``still_unsure``): an injected instruction would come with the
agent's confirmation too, so only the confirm endpoint releases it."""

from __future__ import annotations

from memory_service.core.model import Reason, ReasonCode
from memory_service.services.notes import still_unsure

GUESS = Reason(ReasonCode.SPECULATIVE, "model")
PASSING = Reason(ReasonCode.EPHEMERAL, "model")
ORDER = Reason(ReasonCode.INSTRUCTION, "model")


def test_unconfirmed_holds_all_stay() -> None:
    assert still_unsure((GUESS, ORDER), confirmed=False) == (GUESS, ORDER)


def test_the_agents_confirmation_releases_guesses_and_passing_states() -> None:
    assert still_unsure((GUESS, PASSING), confirmed=True) == ()


def test_the_agents_confirmation_never_releases_a_possible_instruction() -> None:
    assert still_unsure((GUESS, ORDER), confirmed=True) == (ORDER,)
