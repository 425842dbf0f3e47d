"""Judgment guards: is a note a guess, a passing state, noise or an instruction?

These four are questions of meaning, so a learned model decides them
(:mod:`.model`, trained by ``tools/train_guards.py`` on the corpus in ``data/judgment``).
Words decide only what words really decide (:mod:`.rules`): a note that is nothing but a
greeting or thanks, and text dressed as a chat role or template marker ("SYSTEM:",
"<|im_start|>"). The privacy guards (personal data, secrets) live apart, in
:mod:`memory_service.core.privacy`, so each can change without the other.

:func:`judge` returns the reasons to refuse and the reasons to hold the note for the user's
confirmation (a score close below the refuse threshold of a reason the user can settle). It
never stores, logs or repeats the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_service.core.judgment.model import JudgmentModel, ModelFileError, default_model
from memory_service.core.judgment.rules import (
    EVEN_ODDS,
    asks_what_no_user_may,
    gives_a_value,
    holds_amounts,
    is_addressed_command,
    is_conversation_record,
    is_drawn_conclusion,
    is_empty_chatter,
    is_grounded_inference,
    is_role_markup,
    lifts_a_safeguard,
    marks_a_guess,
    marks_a_passing_state,
    reported_questions_quoted,
)
from memory_service.core.judgment.sentence_stage import SentenceStage, default_sentence_stage
from memory_service.core.model import Durability, Reason, ReasonCode, Source

__all__ = [
    "DETAILS",
    "JudgmentModel",
    "ModelFileError",
    "SentenceStage",
    "Verdict",
    "default_model",
    "is_ephemeral",
    "judge",
]

DETAILS = {
    ReasonCode.SPECULATIVE: "a guess or hedged statement; save only what the user stated",
    ReasonCode.EPHEMERAL: "only true for now; save it with durability 'session' or not at all",
    ReasonCode.NOT_ACTIONABLE: (
        "greeting, thanks or conversation meta; nothing a later decision could use"
    ),
    ReasonCode.INSTRUCTION: "text addressed to the agent or system, not a fact about the user",
}
_CODES = {code.value: code for code in DETAILS}
_SPECULATIVE = ReasonCode.SPECULATIVE.value


@dataclass(frozen=True)
class Verdict:
    """``refuse``: reasons to reject. ``hold``: reasons to ask the user first (only when
    nothing is refused)."""

    refuse: tuple[Reason, ...]
    hold: tuple[Reason, ...]


def _reason(code: ReasonCode) -> Reason:
    return Reason(code, DETAILS[code])


def judge(
    text: str,
    durability: Durability,
    model: JudgmentModel | None = None,
    source: Source = Source.USER_STATED,
    stage: SentenceStage | None = None,
) -> Verdict:
    """The four judgment reasons for one note's text.

    A passing state is fine in a session-only note (it is forgotten when the session ends),
    so ``ephemeral`` applies to durable notes only. A note the agent declares
    ``model_inferred`` is a hypothesis; given with the evidence it was drawn from, it is a
    speculation (:func:`.rules.is_grounded_inference`); a note of any source that draws its
    own conclusion from a source or a habit it names is one too
    (:func:`.rules.is_drawn_conclusion`).

    A guess scored in the band of the sentence stage (:mod:`.sentence_stage`, the shipped one
    when ``model`` is the shipped model, else ``stage``) is held or not as the stage decides; for
    a note the agent declares inferred, held if the stage or the model's hold band says so.
    """
    if model is None or model is default_model():
        model = default_model()
        stage = stage or default_sentence_stage()
    return _judged(text, durability, model, source, stage)


def _judged(
    text: str,
    durability: Durability,
    model: JudgmentModel,
    source: Source,
    stage: SentenceStage | None,
) -> Verdict:
    scores = model.scores(text)
    # A question the note reports is the user's, hedge and all: the guess is scored with it
    # read as a quotation (:func:`.rules.reported_questions_quoted`), the other reasons not.
    requoted = reported_questions_quoted(text)
    guess = scores[_SPECULATIVE] if requoted == text else model.scores(requoted)[_SPECULATIVE]
    thresholds = model.thresholds
    refuse: set[ReasonCode] = set()
    hold: set[ReasonCode] = set()
    for label, code in _CODES.items():
        if code is ReasonCode.EPHEMERAL and durability is not Durability.DURABLE:
            continue
        score = guess if label == _SPECULATIVE else scores[label]
        if score >= thresholds[label].refuse:
            refuse.add(code)
        elif (
            stage is not None
            and stage.label == label
            and stage.reaches(score, thresholds[label].refuse)
        ):
            cheap = source is Source.MODEL_INFERRED and score >= thresholds[label].confirm
            if cheap or stage.stops(score, text):
                hold.add(code)
        elif score >= thresholds[label].confirm and _may_hold(code, score, text, source):
            hold.add(code)
    if is_empty_chatter(text) or (source is Source.SYSTEM_RECORD and is_conversation_record(text)):
        refuse.add(ReasonCode.NOT_ACTIONABLE)
    grounded = source is Source.MODEL_INFERRED and is_grounded_inference(text)
    if grounded or is_drawn_conclusion(text):
        refuse.add(ReasonCode.SPECULATIVE)
    if (
        is_role_markup(text)
        or is_addressed_command(text)
        or lifts_a_safeguard(text)
        or asks_what_no_user_may(text)
    ):
        refuse.add(ReasonCode.INSTRUCTION)
    if refuse:
        # The note is refused anyway: a reason it was held for is named with the others.
        refuse |= hold
        hold = set()
    order = list(DETAILS)
    return Verdict(
        refuse=tuple(_reason(c) for c in order if c in refuse),
        hold=tuple(_reason(c) for c in order if c in hold),
    )


def _may_hold(code: ReasonCode, score: float, text: str, source: Source) -> bool:
    """Whether a score in the hold band holds the note: at even odds or above, or for a note
    the agent declares inferred, the model alone; below, a user's note only if its grammar
    marks a guess (:func:`.rules.marks_a_guess`), and a note that holds amounts (a quantity, a
    price, a setting; no code) only if its grammar marks a passing state
    (:func:`.rules.marks_a_passing_state`)."""
    if score >= EVEN_ODDS or source is Source.MODEL_INFERRED:
        return True
    if code is ReasonCode.SPECULATIVE:
        return marks_a_guess(text) or gives_a_value(text)
    if code is not ReasonCode.EPHEMERAL:
        return True
    return marks_a_passing_state(text) or not holds_amounts(text)


def is_ephemeral(text: str, model: JudgmentModel | None = None) -> bool:
    """Whether a note states a passing state (consolidation drops such notes at the end of a
    session, whatever durability the agent gave them)."""
    # Guesses are not asked about here: the sentence stage is not run.
    verdict = _judged(text, Durability.DURABLE, model or default_model(), Source.USER_STATED, None)
    return any(reason.code is ReasonCode.EPHEMERAL for reason in verdict.refuse)
