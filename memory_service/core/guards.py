"""Distillation guards: what an agent may remember through ``save_memory_note``.

Each guard is a small function returning a list of :class:`Reason`. :func:`validate_note`
runs all of them, so a rejection lists every reason that applies. A guard never stores,
logs or repeats the note: every ``detail`` is a fixed sentence, a count or a list of entity
types, so a rejected note's text cannot leak through a reason.

Language data (hedges, time markers, greetings, injection phrases) lives in
``core/lexicons/*.json``. The privacy guards (personal data and secrets) live in
:mod:`memory_service.core.privacy`; this module only calls them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from memory_service.core.judgment import DETAILS as JUDGMENT_DETAILS
from memory_service.core.judgment import JudgmentModel, judge
from memory_service.core.judgment.rules import is_addressed_command, is_role_markup
from memory_service.core.lexicons import DEFAULT_LEXICONS, Lexicons, fold
from memory_service.core.model import DEFAULT_PURPOSE, Durability, Reason, ReasonCode, Source
from memory_service.core.ports import IdentifierDetector
from memory_service.core.privacy.guard import PiiDetector, check_privacy
from memory_service.core.privacy.tool_call import TOOL_CALL_ID_RULE, valid_tool_call_id
from memory_service.core.purpose import PURPOSE_SHAPE
from memory_service.core.text import normalize_keyword

MAX_TEXT_CHARS = 280
MAX_SENTENCES = 2
MAX_KEYWORDS = 3
MAX_KEYWORD_CHARS = 40
# Beyond this the note is invalid anyway; the content guards skip it so a hostile
# megabyte cannot make the hot path slow (nothing is stored either way).
MAX_SCANNED_CHARS = 4 * MAX_TEXT_CHARS

ALLOWED_FIELDS = (
    "text",
    "keywords",
    "purpose",
    "source",
    "durability",
    "confirmed",
    "turn",
    "tool_call_id",
)
AGENT_SOURCES = (Source.USER_STATED, Source.SYSTEM_RECORD, Source.MODEL_INFERRED)

_SENTENCE_BREAK = re.compile(r"(?<=[.!?\u2026])[\"'\u201d\u00bb)\]]*\s+")
_WORD = re.compile(r"[^\W_]+")


__all__ = ["PiiDetector", "validate_note"]


@dataclass(frozen=True)
class NoteDraft:
    """The tool arguments once checked and normalised: what the service may store."""

    text: str
    keywords: tuple[str, ...]
    purpose: str
    source: Source
    durability: Durability
    confirmed: bool
    tool_call_id: str | None = None


@dataclass(frozen=True)
class NoteValidation:
    """``draft`` is None when the arguments are structurally invalid. ``held`` lists the
    judgment reasons the model was unsure of: the note is kept only once the user confirms
    (empty whenever ``reasons`` is not)."""

    draft: NoteDraft | None
    reasons: tuple[Reason, ...]
    held: tuple[Reason, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.draft is not None and not self.reasons

    @property
    def codes(self) -> tuple[ReasonCode, ...]:
        return tuple(reason.code for reason in self.reasons)


def validate_note(
    arguments: object,
    *,
    pii: PiiDetector,
    identifiers: IdentifierDetector,
    lexicons: Lexicons = DEFAULT_LEXICONS,
    judgment: JudgmentModel | None = None,
    backstop: bool = False,
) -> NoteValidation:
    """Check ``save_memory_note`` arguments with every guard and collect all reasons.

    Structural problems become ``invalid`` reasons (never exceptions), and the content
    guards still run on whatever text is usable, so the caller learns everything at once.
    ``backstop``: the learned privacy backstop reads what the privacy rules accept.
    """
    parsed = _parse(arguments)
    reasons = list(parsed.reasons)
    held: tuple[Reason, ...] = ()
    text = parsed.scannable_text
    if text is not None:
        reasons += check_privacy(
            text,
            parsed.keywords,
            pii=pii,
            identifiers=identifiers,
            lexicons=lexicons,
            learned=backstop,
        )
        verdict = judge(text, parsed.durability, judgment, parsed.source)
        reasons += verdict.refuse
        # An instruction hidden in a keyword is still an instruction.
        if any(_keyword_instructs(keyword, judgment) for keyword in parsed.keywords):
            reasons += [r for r in _INSTRUCTION_REASON if r not in reasons]
        held = verdict.hold
    return NoteValidation(draft=parsed.draft, reasons=tuple(reasons), held=held)


_INSTRUCTION_REASON = (Reason(ReasonCode.INSTRUCTION, JUDGMENT_DETAILS[ReasonCode.INSTRUCTION]),)
# A keyword of fewer words is a topic ("account", "developer"): the model reads sentences, and
# on one or two words its few features weigh like a whole note's (holdout5: 30 durable notes
# refused as instructions because of a topic keyword). Such a keyword is checked by the rules
# that words decide (role markup, an order addressed to the agent); a phrase by the model too.
_KEYWORD_PHRASE_WORDS = 3


def _keyword_instructs(keyword: str, judgment: JudgmentModel | None) -> bool:
    if is_role_markup(keyword) or is_addressed_command(keyword):
        return True
    if len(_WORD.findall(keyword)) < _KEYWORD_PHRASE_WORDS:
        return False
    refused = judge(keyword, Durability.SESSION, judgment).refuse
    return any(r.code is ReasonCode.INSTRUCTION for r in refused)


# --- structure -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Parsed:
    draft: NoteDraft | None
    reasons: tuple[Reason, ...]
    scannable_text: str | None
    keywords: tuple[str, ...]
    durability: Durability
    source: Source = Source.USER_STATED


def _invalid(detail: str) -> Reason:
    return Reason(ReasonCode.INVALID, detail)


def _parse(arguments: object) -> _Parsed:
    if not isinstance(arguments, Mapping):
        reason = _invalid("arguments must be a JSON object")
        return _Parsed(None, (reason,), None, (), Durability.DURABLE)
    reasons: list[Reason] = []
    unknown = [key for key in arguments if key not in ALLOWED_FIELDS]
    if unknown:
        reasons.append(
            _invalid(f"{len(unknown)} unknown field(s); allowed: {', '.join(ALLOWED_FIELDS)}")
        )
    text, scannable, text_reasons = _parse_text(arguments.get("text"))
    keywords, keyword_reasons = _parse_keywords(arguments.get("keywords", []))
    purpose, purpose_reasons = _parse_purpose(arguments.get("purpose", DEFAULT_PURPOSE))
    source, source_reasons = _parse_source(arguments.get("source", Source.USER_STATED.value))
    durability, durability_reasons = _parse_durability(
        arguments.get("durability", Durability.DURABLE.value)
    )
    confirmed = arguments.get("confirmed", False)
    confirmed_reasons = (
        [] if isinstance(confirmed, bool) else [_invalid("confirmed must be a boolean")]
    )
    # Accepted for compatibility and checked, but never stored: the service derives the turn.
    turn_reasons = _check_turn(arguments.get("turn"))
    tool_call_id, tool_call_reasons = _parse_tool_call_id(arguments.get("tool_call_id"))
    reasons += (
        text_reasons
        + keyword_reasons
        + purpose_reasons
        + source_reasons
        + durability_reasons
        + confirmed_reasons
        + turn_reasons
        + tool_call_reasons
    )
    draft = None
    if not reasons and text is not None:
        draft = NoteDraft(
            text=text,
            keywords=keywords,
            purpose=purpose,
            source=source,
            durability=durability,
            confirmed=bool(confirmed),
            tool_call_id=tool_call_id,
        )
    return _Parsed(draft, tuple(reasons), scannable, keywords, durability, source)


def _parse_text(value: object) -> tuple[str | None, str | None, list[Reason]]:
    """Return (clean text, text the content guards may scan, reasons)."""
    if value is None:
        return None, None, [_invalid("text is required")]
    if not isinstance(value, str):
        return None, None, [_invalid("text must be a string")]
    reasons: list[Reason] = []
    clean = value.strip()
    if not clean:
        return None, None, [_invalid("text is empty")]
    if _has_forbidden_characters(clean):
        reasons.append(_invalid("text contains control or invisible characters"))
        clean = "".join(" " if _is_forbidden(ch) else ch for ch in clean)
    if len(clean) > MAX_TEXT_CHARS:
        reasons.append(_invalid(f"text is longer than {MAX_TEXT_CHARS} characters"))
    elif count_sentences(clean) > MAX_SENTENCES:
        reasons.append(_invalid(f"text has more than {MAX_SENTENCES} sentences"))
    scannable = clean if len(clean) <= MAX_SCANNED_CHARS else None
    return (None if reasons else clean), scannable, reasons


def count_sentences(text: str, lexicons: Lexicons = DEFAULT_LEXICONS) -> int:
    """Sentences split on ., !, ? and … unless the dot ends an abbreviation or an initial, or
    the next word begins in lower case (CRM shorthand: "cli. préf. contact par mail")."""
    count = 0
    pending = ""
    pieces = _SENTENCE_BREAK.split(text)
    for index, piece in enumerate(pieces):
        pending = f"{pending} {piece}" if pending else piece
        if lexicons.sentence_abbreviation.search(fold(pending.rstrip())):
            continue
        # A sentence does not begin in lower case: the dot before "préf. contact par mail",
        # "cód. tarjeta" or "nessun cod. conservato" ends a shorthand, not a sentence.
        following = pieces[index + 1] if index + 1 < len(pieces) else ""
        if following[:1].islower():
            continue
        if _WORD.search(pending):
            count += 1
        pending = ""
    if pending and _WORD.search(pending):
        count += 1
    return count


def _is_forbidden(ch: str) -> bool:
    """Control characters, lone surrogates and the invisible format characters that can hide
    text (bidi overrides, zero-width spaces); plain tabs and newlines are allowed."""
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or (
        unicodedata.category(ch) == "Cf" and ch not in "\u200d\ufe0f"
    )


def _has_forbidden_characters(text: str) -> bool:
    return any(_is_forbidden(ch) for ch in text)


def _parse_keywords(value: object) -> tuple[tuple[str, ...], list[Reason]]:
    if value is None:
        return (), []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return (), [_invalid("keywords must be a list of strings")]
    reasons: list[Reason] = []
    if len(value) > MAX_KEYWORDS:
        reasons.append(_invalid(f"at most {MAX_KEYWORDS} keywords"))
    normalised = [normalize_keyword(item) for item in value[: MAX_KEYWORDS * 4]]
    if any(not item or len(item) > MAX_KEYWORD_CHARS for item in normalised):
        reasons.append(_invalid(f"each keyword must be 1 to {MAX_KEYWORD_CHARS} characters"))
    if any(_has_forbidden_characters(item) for item in normalised):
        reasons.append(_invalid("keywords contain control or invisible characters"))
    # Keywords are scanned by the content guards too; cap what is scanned like the text.
    kept = tuple(dict.fromkeys(item[: MAX_KEYWORD_CHARS * 2] for item in normalised if item))
    return kept, reasons


def _parse_purpose(value: object) -> tuple[str, list[Reason]]:
    if isinstance(value, str) and PURPOSE_SHAPE.fullmatch(value):
        return value, []
    return DEFAULT_PURPOSE, [
        _invalid("purpose must be a lower-case slug: a letter, then up to 39 of a-z, 0-9, _ or -")
    ]


def _parse_source(value: object) -> tuple[Source, list[Reason]]:
    if value == Source.ADMIN_CORRECTION.value:
        return Source.USER_STATED, [_invalid("source admin_correction is reserved for admins")]
    for source in AGENT_SOURCES:
        if value == source.value:
            return source, []
    allowed = ", ".join(source.value for source in AGENT_SOURCES)
    return Source.USER_STATED, [_invalid(f"source must be one of {allowed}")]


def _parse_durability(value: object) -> tuple[Durability, list[Reason]]:
    for durability in Durability:
        if value == durability.value:
            return durability, []
    return Durability.DURABLE, [_invalid("durability must be 'durable' or 'session'")]


def _check_turn(value: object) -> list[Reason]:
    if value is None:
        return []
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31:
        return []
    return [_invalid("turn must be a non-negative integer")]


def _parse_tool_call_id(value: object) -> tuple[str | None, list[Reason]]:
    if value is None:
        return None, []
    if isinstance(value, str) and valid_tool_call_id(value):
        return value, []
    return None, [_invalid(f"tool_call_id must be {TOOL_CALL_ID_RULE}")]


# --- content guards --------------------------------------------------------------------
