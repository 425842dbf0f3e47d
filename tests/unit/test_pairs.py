"""The pair model: the shipped file, what it reads, and how the plan uses it."""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.core.consolidation import DecisionReason, MergePlan
from memory_service.core.consolidation.pairs import (
    LABELS,
    SCALAR_FEATURES,
    NoteView,
    PairModel,
    PairModelError,
    content_words,
    default_pair_model,
    fingerprint,
    load_pair_model,
    pair_features,
    scope_differs,
)
from memory_service.core.consolidation.rules import content_text, terms_of
from memory_service.core.consolidation.slots import default_slot_model
from memory_service.core.model import Attribute, Cardinality, MemoryScope, Source
from tests.support.tools import load_tool
from tests.unit.test_consolidation import _active_texts, make_global, make_note, plan

WIDTH = 4
# A toy vector space of WIDTH dimensions: the first axis is "diet", the second "city".
DIET = (1.0, 0.0, 0.0, 0.0)
CITY = (0.0, 1.0, 0.0, 0.0)


def toy_model(
    *, threshold: float = 0.8, hypothesis_threshold: float | None = None, centre: float = 0.5
) -> PairModel:
    """A logistic regression reading the content cosine alone: related above ``centre``."""
    n = len(SCALAR_FEATURES)
    weights = [[0.0] * len(LABELS) for _ in range(n)]
    cos = SCALAR_FEATURES.index("cos_content")
    weights[cos] = [-10.0, 0.0, 0.0, 10.0]  # unrelated ... conflict
    return PairModel(
        labels=LABELS,
        dims=0,
        mean=[0.0] * n,
        scale=[1.0] * n,
        layers=[(weights, [10.0 * centre, -20.0, -20.0, -10.0 * centre])],
        threshold=threshold,
        hypothesis_threshold=hypothesis_threshold,
        vector_size=WIDTH,
        metadata={"features": fingerprint(0)},
    )


class ToyWords:
    """An embedder of content words for the toy space: every word on the first axis (the toy
    model does not read them; the plan asks the model only about notes it can read)."""

    model = "toy"

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [DIET for _ in texts]


TOY_WORDS = ToyWords()


def run(
    older: str,
    newer: str,
    older_vector: tuple[float, ...],
    newer_vector: tuple[float, ...],
    *,
    older_changes: dict[str, Any] | None = None,
    newer_changes: dict[str, Any] | None = None,
    model: PairModel | None = None,
    embedder: ToyWords | None = TOY_WORDS,
) -> tuple[MergePlan, set[str]]:
    old = make_global(older, **(older_changes or {}))
    note = make_note(newer, **(newer_changes or {}))
    vectors = {old.id: older_vector, note.id: newer_vector}
    result = plan(
        [note],
        [old],
        vectors=vectors,
        meanings=vectors,
        pairs=model or toy_model(),
        embedder=embedder,
    )
    return result, _active_texts(result, [old, note])


def test_the_shipped_model_loads_and_matches_the_feature_code() -> None:
    model = default_pair_model()
    assert model.metadata["features"] == fingerprint(model.dims)
    assert 0.5 <= model.threshold < 1.0
    assert model.vector_size == WordLlamaEmbedder.load().dimensions


def test_a_model_of_other_features_or_shape_is_refused() -> None:
    document = toy_model().to_document()
    assert load_pair_model(gzip.compress(json.dumps(document).encode())).dims == 0
    stale = {**document, "metadata": {"features": "0" * 16}}
    with pytest.raises(PairModelError, match="other features"):
        load_pair_model(gzip.compress(json.dumps(stale).encode()))
    with pytest.raises(PairModelError):
        PairModel.from_document({**document, "labels": ["same", "unrelated"]})
    with pytest.raises(PairModelError):
        PairModel.from_document({**document, "mean": [0.0]})
    with pytest.raises(PairModelError):
        load_pair_model(b"not gzip")


def test_a_related_pair_supersedes_or_merges_by_the_model() -> None:
    result, active = run("Lives in Paris", "Settled in Lyon last spring", CITY, CITY)
    assert active == {"Settled in Lyon last spring"}
    assert DecisionReason.LEARNED_PAIR in [d.reason for d in result.decisions]


def test_an_unrelated_pair_keeps_both() -> None:
    _, active = run("Is vegetarian", "Lives in Lyon", DIET, CITY)
    assert active == {"Is vegetarian", "Lives in Lyon"}


def test_without_word_vectors_the_model_is_not_asked() -> None:
    _, active = run("Lives in Paris", "Settled in Lyon last spring", CITY, CITY, embedder=None)
    assert active == {"Lives in Paris", "Settled in Lyon last spring"}


# Content cosine 0.45: under the rules' guess-meets-fact cosine (0.5); the toy model centred
# at 0.4 gives P(related) about 0.73, between the guess's bar (0.6) and the other (0.8).
ANGLE = (0.45, math.sqrt(1 - 0.45**2), 0.0, 0.0)
GUESS = {"source": Source.MODEL_INFERRED}


def guess_model() -> PairModel:
    return toy_model(threshold=0.8, hypothesis_threshold=0.6, centre=0.4)


def test_two_stated_facts_under_the_bar_both_stay() -> None:
    older, newer = "Commutes by car", "Takes the subway to work"
    _, active = run(older, newer, DIET, ANGLE, model=guess_model())
    assert active == {older, newer}


def test_a_stated_fact_related_to_an_older_guess_replaces_it() -> None:
    older, newer = "Commutes by car", "Takes the subway to work"
    result, active = run(older, newer, DIET, ANGLE, older_changes=GUESS, model=guess_model())
    assert active == {newer}
    (kept,) = [m for m in result.created if m.text == newer] or [
        m for m in result.updated if m.text == newer and m.scope is MemoryScope.GLOBAL
    ]
    assert kept.source is Source.USER_STATED
    assert DecisionReason.LEARNED_PAIR in [d.reason for d in result.decisions]


def test_a_newer_guess_related_to_a_stated_fact_is_not_promoted() -> None:
    older, newer = "Takes the subway to work", "Commutes by car"
    result, active = run(older, newer, DIET, ANGLE, newer_changes=GUESS, model=guess_model())
    assert active == {older}
    assert DecisionReason.HYPOTHESIS_YIELDS in [d.reason for d in result.decisions]


def test_an_unrelated_guess_stays_beside_a_statement() -> None:
    older, newer = "Commutes by car", "Lives in Lyon"
    _, active = run(older, newer, DIET, CITY, older_changes=GUESS, model=guess_model())
    assert active == {older, newer}


def test_the_guess_bar_is_at_most_the_other() -> None:
    with pytest.raises(PairModelError):
        toy_model(threshold=0.6, hypothesis_threshold=0.8)


def test_vectors_of_another_width_are_not_read() -> None:
    _, active = run("Lives in Paris", "Settled in Lyon last spring", (1.0, 0.0), (1.0, 0.0))
    assert active == {"Lives in Paris", "Settled in Lyon last spring"}


def test_a_note_about_someone_else_never_replaces_the_users_fact() -> None:
    _, active = run("Lives in Paris", "Sister settled in Lyon", CITY, CITY)
    assert active == {"Lives in Paris", "Sister settled in Lyon"}


def test_a_guess_never_supersedes_a_stated_fact_by_the_model() -> None:
    _, active = run(
        "Lives in Paris",
        "Seems settled in Lyon",
        CITY,
        CITY,
        newer_changes={"source": Source.MODEL_INFERRED},
    )
    assert "Lives in Paris" in active


def test_two_attributes_sent_by_the_agent_are_not_second_guessed() -> None:
    city = {"attribute": Attribute("home_city", Cardinality.SINGLE)}
    work = {"attribute": Attribute("work_city", Cardinality.SINGLE)}
    _, active = run(
        "Lives in Paris", "Works in Lyon", CITY, CITY, older_changes=city, newer_changes=work
    )
    assert active == {"Lives in Paris", "Works in Lyon"}


def test_the_model_supersedes_one_memory_per_note_at_most() -> None:
    paris, nice = make_global("Lives in Paris"), make_global("Grew up in Nice")
    note = make_note("Settled in Lyon last spring")
    near = (0.0, math.sqrt(0.99), 0.1, 0.0)
    vectors = {paris.id: CITY, nice.id: near, note.id: CITY}
    result = plan(
        [note],
        [paris, nice],
        vectors=vectors,
        meanings=vectors,
        pairs=toy_model(),
        embedder=ToyWords(),
    )
    assert _active_texts(result, [paris, nice, note]) == {
        "Grew up in Nice",
        "Settled in Lyon last spring",
    }


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Has a debit card", "Has no credit card"),
        ("Uses Jira at work", "Does not use Jira for personal projects"),
        ("Flies long-haul for work twice a year", "Doesn't fly short-haul"),
        ("Fait du vélo de route le week-end", "Ne fait jamais de vélo d'appartement"),
        ("Visited Japan in 2019", "Visited Japan in 2023"),
    ],
)
def test_a_negation_or_a_date_of_another_scope_keeps_both(older: str, newer: str) -> None:
    # The toy model calls any pair of one vector a conflict: only the scope keeps both.
    assert scope_differs(terms_of(older), terms_of(newer))
    _, active = run(older, newer, DIET, DIET)
    assert active == {older, newer}


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Uses Jira at work", "Does not use Jira"),  # the whole statement denied
        ("Travels with the dog", "Doesn't take the dog on trips anymore"),  # marked change
        ("Is car-free", "Doesn't have a vehicle"),  # no shared word: the model decides
        ("Has no gym membership", "Joined a climbing gym"),  # the newer is not negated
        ("Likely works with Django", "Uses Flask, not Django"),  # the negation qualifies
    ],
)
def test_a_negation_of_the_same_scope_is_left_to_the_model(older: str, newer: str) -> None:
    assert not scope_differs(terms_of(older), terms_of(newer))
    _, active = run(older, newer, DIET, DIET)
    assert active == {newer}


@pytest.mark.parametrize(
    ("older", "newer", "related"),
    [
        ("Vegetarian", "Doesn't eat meat or fish", True),
        ("Lives in a studio flat", "Moved into a three-bedroom house", True),
        ("Likes Italian food", "Likes Japanese food", False),
        ("Drinks coffee in the morning", "Drinks tea after dinner", False),
        ("Prefers window seats on long flights", "Prefers aisle seats on short flights", False),
    ],
)
def test_the_shipped_model_on_known_pairs(older: str, newer: str, related: bool) -> None:
    model = default_pair_model()
    embedder = WordLlamaEmbedder.load()
    slots = default_slot_model()

    def view(text: str) -> NoteView:
        vector, meaning = embedder.embed([text, content_text(text)])
        words = content_words(text)
        return NoteView(
            terms_of(text),
            vector,
            meaning,
            slots.probabilities(text, meaning),
            embedder.embed(words) if words else [],
        )

    verdict = model.verdict(view(older), view(newer))
    assert (verdict.related >= model.threshold) is related
    assert math.isclose(sum(verdict.probabilities.values()), 1.0)


def _train_pairs() -> Any:
    return load_tool("train_pairs")


@pytest.mark.parametrize(("kind", "c"), [("lr", 0.1), ("mlp", 3.0)])
def test_training_is_deterministic_and_the_shipped_form_predicts_as_sklearn(
    kind: str, c: float
) -> None:
    train = _train_pairs()
    rng = np.random.default_rng(0)
    x = rng.normal(size=(80, len(SCALAR_FEATURES)))
    y = np.array([LABELS[int(i)] for i in (x[:, 0] > 0) + 2 * (x[:, 1] > 0.5)])
    candidate = train.Candidate("tiny", 0, kind, c)
    first, mean, scale = candidate.fit(x, y, 7)
    again, _, _ = candidate.fit(x, y, 7)
    assert candidate.layers(first) == candidate.layers(again)
    model = PairModel(
        labels=LABELS,
        dims=0,
        mean=mean.tolist(),
        scale=scale.tolist(),
        layers=candidate.layers(first),
        threshold=0.5,
        vector_size=WIDTH,
    )
    expected = first.predict_proba((x[:5] - mean) / scale)
    for row, want in zip(x[:5], expected, strict=True):
        got = model.probabilities_of(row.tolist())
        for label, p in zip(first.classes_, want, strict=True):
            assert got[label] == pytest.approx(p, abs=1e-3)


def test_word_alignment_features() -> None:
    older = NoteView(terms_of("Likes trains and cats"), words=((1.0, 0.0), (0.0, 1.0)))
    newer = NoteView(terms_of("Loves rail"), words=((1.0, 0.0),))
    row = dict(zip(SCALAR_FEATURES, pair_features(older, newer, dims=0), strict=True))
    assert row["align_mean"] == pytest.approx(2 / 3)
    assert (row["align_min"], row["align_min_older"], row["align_min_newer"]) == (0.0, 0.0, 1.0)
    assert row["align_unmatched"] == pytest.approx(1 / 3)
    empty = NoteView(terms_of("Yes"), words=())
    row = dict(zip(SCALAR_FEATURES, pair_features(empty, newer, dims=0), strict=True))
    assert row["align_mean"] == row["align_unmatched"] == 0.0


def test_a_newer_note_adding_a_value_is_not_read_as_replacing() -> None:
    # The toy model calls any pair of one vector a conflict: "aussi" keeps both.
    _, active = run("A un chat", "A aussi un lapin", DIET, DIET)
    assert active == {"A un chat", "A aussi un lapin"}
