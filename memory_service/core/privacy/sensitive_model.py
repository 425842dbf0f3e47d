"""The learned half of the special-categories detector (:mod:`.sensitive`).

A list of conditions, parties, unions and faiths cannot close the class: every new set of
notes brings a phrasing nobody listed ("Takes sertraline every morning", "Syndiqué à la CGT",
"Porta un apparecchio acustico"). This model reads the meaning the lists miss: one logistic
regression per label over the judgment model's features
(:func:`memory_service.core.judgment.features.features`: words, word pairs and character
n-grams, folded, in the five languages), scored by
:class:`~memory_service.core.judgment.model.JudgmentModel`.

Labels: ``sensitive`` (any category) and one per category. A note is held when the mean of
the ``sensitive`` score and the best category's score reaches the hold threshold (chosen on
dev to keep the ordinary notes the model holds on its own within a budget); the categories
passing their own threshold (best F1 on dev) name it, else the highest-scoring one. The
weights ship in ``sensitive_model.json.gz``, written by ``tools/train_sensitive.py`` (seeded,
deterministic), and are read once per process; a missing or malformed file stops the service
at start, never a note.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from memory_service.core.judgment.model import JudgmentModel, ModelFileError, Scores, checked
from memory_service.core.model_files import read_model_document

ANY = "sensitive"
MODEL_FILE = "sensitive_model.json.gz"


class SensitiveModel:
    """Category values (``"health"``...) a note states about its person, by the model."""

    def __init__(self, scorer: JudgmentModel, categories: Iterable[str]) -> None:
        if not scorer.labels or scorer.labels[0] != ANY:
            raise ModelFileError(f"the sensitive model's first label must be {ANY!r}")
        if not set(scorer.labels[1:]) <= set(categories):
            raise ModelFileError("the sensitive model names an unknown category")
        self.scorer = scorer
        self._categories = scorer.labels[1:]

    def hold_score(self, scores: Scores) -> float:
        """How sensitive the note reads: the mean of the ``sensitive`` label and the most
        likely category (two views of one question; their mean ranks better than either)."""
        return (scores[ANY] + max(scores[c] for c in self._categories)) / 2

    def categories(self, text: str) -> frozenset[str]:
        scores = self.scorer.scores(text)
        if self.hold_score(scores) < self.scorer.thresholds[ANY].refuse:
            return frozenset()
        return self.named(scores)

    def named(self, scores: Scores) -> frozenset[str]:
        """The categories of a held note: those passing their own threshold, else the most
        likely one."""
        named = [c for c in self._categories if scores[c] >= self.scorer.thresholds[c].refuse]
        return frozenset(named or [max(self._categories, key=scores.__getitem__)])


@cache
def default_sensitive_model(categories: frozenset[str]) -> SensitiveModel:
    """The model shipped with the package, read once per process; ``categories`` are the
    values it may name."""
    document = read_model_document(__package__, MODEL_FILE, ModelFileError, "sensitive")
    return SensitiveModel(checked(JudgmentModel.from_document(document)), categories)
