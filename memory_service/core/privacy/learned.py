"""The learned backstop of the privacy guards: a note-level model for what the rules miss.

The rules of this package (secrets, identifiers, names, locators...) read values by their
shape and their cue words; every new set of notes brings a phrasing none of them reads. This
model reads the whole note: one logistic regression per label (``pii``, ``secret``) over the
judgment model's features (:func:`memory_service.core.judgment.features.features`: words,
word pairs, character 5-grams, folded) of the normalised note
(:mod:`memory_service.core.privacy.normalise`, text and keywords), scored by
:class:`~memory_service.core.judgment.model.JudgmentModel`. A model file trained with the
token shapes too (:func:`token_shapes`: "Kestrel_Vex#0417" -> ``Aa_Aa#9999``, "PIN 4 1 5 2"
-> a run of four one-digit groups after "pin") records their fingerprint and reads them; the
shipped one is trained without them, which closed more of the leaks the rules miss
leave-one-set-out (``data/privacy/REPORT.md``).

It is a fail-closed backstop: :func:`memory_service.core.privacy.guard.check_privacy` asks it
only about a note the rules accept, and it can only add a refusal (a ``pii`` reason with the
type ``LEARNED``, a ``secret`` reason with the kind ``learned``), never remove one. The
thresholds were chosen leave-one-set-out on the seen evaluation sets (``data/privacy/
REPORT.md``) for the product's trade-off: at most about 1.5 % of durable notes newly refused.

Since session 15 a note whose highest score reaches the sentence stage's band
(:mod:`.sentence_backstop`, 6 % of the seen notes) is decided by that stage instead, which
reads the two scores and the sentence encoder's vector of the note: a new writer's phrasing
the words miss. If the encoder cannot be used, the model's own thresholds decide, as before.

The weights ship in ``privacy_model.json.gz``, written by ``tools/train_privacy.py`` (seeded,
deterministic), and are read once per process; a missing or malformed file raises
:class:`ModelFileError` at start, never per note. No note's text or features are kept.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from memory_service.core.judgment.features import features
from memory_service.core.judgment.model import JudgmentModel, ModelFileError, checked
from memory_service.core.model_files import read_model_document
from memory_service.core.privacy.sentence_backstop import (
    STAGE_FILE,
    SentenceBackstop,
    checked_stage,
)

PII = "pii"
SECRET = "secret"
LABELS = (PII, SECRET)
MODEL_FILE = "privacy_model.json.gz"
# What a refusal of the backstop says: a type and a kind, never a value.
PII_TYPE = "LEARNED"
SECRET_KIND = "learned"
# A text of fewer words is not a note (an attribute key said as words, "home airport"): the
# model was trained and its thresholds chosen on notes, and on two or three words each feature
# weighs as much as a sentence's. Such a text is left to the rules.
MIN_WORDS = 3

_WORD = re.compile(r"[^\W_]+")
# A token: anything between spaces, without the punctuation that ends a clause around it.
_RAW_TOKEN = re.compile(r"\S+")
_EDGE = "\"'()[]{}<>.,;:!?\u00ab\u00bb\u201c\u201d"
_DIGITS = re.compile(r"\d+")
_NUMERIC = re.compile(r"\d+(?:[-./]\d+)*")
# Longer digit runs are one shape: a 16-digit card and a 19-digit one are the same thing.
_MAX_RUN = 12


def _char_class(ch: str) -> str:
    if ch.isdigit():
        return "9"
    if ch.isalpha():
        return "A" if ch.isupper() else "a"
    return ch


def _shape(token: str) -> tuple[str, str]:
    """(the token's shape with letter runs collapsed and digit runs kept by length, the same
    with digit runs collapsed too): "Kestrel_Vex#0417" -> ("Aa_Aa#9999", "Aa_Aa#9")."""
    classes = [_char_class(ch) for ch in token]
    long: list[str] = []
    short: list[str] = []
    digits = 0
    for index, cls in enumerate(classes):
        if cls == "9":
            digits += 1
            if index + 1 < len(classes) and classes[index + 1] == "9":
                continue
            long.append("9" * min(digits, _MAX_RUN))
            short.append("9")
            digits = 0
            continue
        if index and classes[index - 1] == cls and cls in "Aa":
            continue
        long.append(cls)
        short.append(cls)
    return "".join(long)[:24], "".join(short)[:16]


def token_shapes(note: str) -> frozenset[str]:
    """The shapes of a note's tokens that words do not carry (``t:``/``ts:``), each after the
    word before it (``tc:``), and runs of number groups (``tr:``): "1147 8823 9" and
    "4 1 5 2" are values said in parts; a plain word ("Discord", "lunch") has no shape here."""
    found: set[str] = set()
    previous = "^"
    run: list[str] = []
    for match in _RAW_TOKEN.finditer(note):
        token = match.group().strip(_EDGE)
        if not token:
            continue
        if _NUMERIC.fullmatch(token):
            run.append("-".join("9" * min(len(d), _MAX_RUN) for d in _DIGITS.findall(token)))
        else:
            _flush_run(run, found)
            run = []
        bare = token.replace("'", "").replace("-", "")
        plain = bare.isalpha() and (bare.islower() or bare[1:].islower())
        if not plain:
            long, short = _shape(token)
            found.add(f"t:{long}")
            found.add(f"ts:{short}")
            found.add(f"tc:{previous}>{short}")
        words = _WORD.findall(token.lower())
        previous = words[-1] if words and not words[-1].isdigit() else previous
    _flush_run(run, found)
    if "@" in note:
        found.add("s:at_sign")
    return frozenset(found)


def _flush_run(run: list[str], found: set[str]) -> None:
    if len(run) >= 2:
        found.add(f"tr:{len(run)}")
        found.add("tr:" + " ".join(run[:6]))
        found.add(f"trd:{min(sum(len(g.replace('-', '')) for g in run), 24)}")


def privacy_features(note: str) -> frozenset[str]:
    """What the backstop reads of a normalised note: the judgment features and the shapes."""
    return features(note) | token_shapes(note)


_PROBES = (
    "User's Discord is Kestrel_Vex#0417, PIN 4 1 5 2; mail jane.doe@gmail.com",
    "Steam friend code 1147 8823 9, box 12-B, IBAN DE89 3704 0044 0532 0130 00.",
    "Prefers aisle seats on long flights, booked 3 times since 2019.",
)


def shapes_fingerprint() -> str:
    """What :func:`token_shapes` makes of fixed probes, hashed; recorded in the model file and
    checked at start, so a change here without retraining fails at start."""
    digest = hashlib.sha256()
    for probe in _PROBES:
        digest.update("\x1f".join(sorted(token_shapes(probe))).encode("utf-8") + b"\x1e")
    return digest.hexdigest()[:16]


class PrivacyScorer(JudgmentModel):
    """The judgment scorer reading :func:`privacy_features` (when the file says it was
    trained on them) instead of the judgment features alone."""

    @property
    def token_shapes(self) -> bool:
        return "token_shapes" in self.metadata

    def features(self, text: str) -> frozenset[str]:
        return privacy_features(text) if self.token_shapes else features(text)


class LearnedPrivacy:
    """Which of ``pii`` and ``secret`` the model (and, in its band, the sentence stage) finds
    in a normalised note."""

    def __init__(self, scorer: JudgmentModel, stage: SentenceBackstop | None = None) -> None:
        if tuple(scorer.labels) != LABELS:
            raise ModelFileError(f"the privacy model's labels must be {LABELS!r}")
        if scorer.metadata.get("token_shapes", shapes_fingerprint()) != shapes_fingerprint():
            raise ModelFileError("the privacy model was trained on other token shapes: retrain it")
        self.scorer = scorer
        self.stage = None if stage is None else checked_stage(stage, scorer)
        # Notes the sentence stage decided (the save path's encoder calls).
        self.asked = 0

    def findings(self, note: str) -> frozenset[str]:
        """The labels found (empty for a text of fewer than ``MIN_WORDS`` words): the sentence
        stage's for a note in its band, else those whose score reaches their threshold. An
        encoder that cannot be used leaves the thresholds to decide, for the process's life."""
        if not is_note(note):
            return frozenset()
        scores = self.scorer.scores(note)
        if self.stage is not None and self.stage.reaches(scores):
            self.asked += 1
            found = self.stage.findings(scores, note)
            if found is not None:
                return found
            self.stage = None
        return frozenset(
            label for label in LABELS if scores[label] >= self.scorer.thresholds[label].refuse
        )


def is_note(text: str) -> bool:
    """Whether the backstop reads ``text``: at least ``MIN_WORDS`` words."""
    return len(_WORD.findall(text)) >= MIN_WORDS


def load_document(
    document: Mapping[str, Any], stage: Mapping[str, Any] | None = None
) -> LearnedPrivacy:
    """The backstop of a model file's document (and of its sentence stage's);
    :class:`ModelFileError` if either is malformed or the stage read another model."""
    if not isinstance(document, Mapping):
        raise ModelFileError("malformed privacy model file")
    # ``from_document`` builds the class it is called on: the same rows, read by
    # :meth:`PrivacyScorer.features`.
    scorer = PrivacyScorer.from_document(document)
    second = None if stage is None else SentenceBackstop.from_document(stage)
    return LearnedPrivacy(checked(scorer), second)


@cache
def default_privacy_model() -> LearnedPrivacy:
    """The model shipped with the package and its sentence stage, read once per process (the
    encoder itself is loaded on the first note in the stage's band)."""
    document = read_model_document(__package__, MODEL_FILE, ModelFileError, "privacy")
    stage = read_model_document(__package__, STAGE_FILE, ModelFileError, "sentence backstop")
    return load_document(document, stage)
