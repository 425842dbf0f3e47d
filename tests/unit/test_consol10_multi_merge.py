"""The pair model between two notes of one multi-valued attribute (session 11, consol10):
a restated value merges, another value stays beside it."""

from __future__ import annotations

import math

import pytest

from memory_service.core.consolidation.pairs import LABELS, SCALAR_FEATURES, PairModel, fingerprint
from memory_service.core.model import Attribute, Cardinality
from tests.unit.test_pairs import DIET, WIDTH, run

# Content cosine 0.7: above the toy model's centre (0.5), under the rules' close-meaning merge
# (0.85), so only the model can relate the two notes.
NEAR_DIET = (0.7, 0.0, 0.0, math.sqrt(1 - 0.49))

TERRAIN = {"attribute": Attribute("terrain_likes", Cardinality.MULTI)}
OTHER_KEY = {"attribute": Attribute("snow_likes", Cardinality.MULTI)}


def labelled_model(label: str) -> PairModel:
    """A logistic regression on the content cosine alone: above 0.5, ``label``."""
    n = len(SCALAR_FEATURES)
    weights = [[0.0] * len(LABELS) for _ in range(n)]
    column = LABELS.index(label)
    weights[SCALAR_FEATURES.index("cos_content")] = [
        -10.0 if k == 0 else (10.0 if k == column else 0.0) for k in range(len(LABELS))
    ]
    bias = [5.0 if k == 0 else (-5.0 if k == column else -20.0) for k in range(len(LABELS))]
    return PairModel(
        labels=LABELS,
        dims=0,
        mean=[0.0] * n,
        scale=[1.0] * n,
        layers=[(weights, bias)],
        threshold=0.8,
        vector_size=WIDTH,
        metadata={"features": fingerprint(0)},
    )


@pytest.mark.parametrize(
    ("older", "newer", "label", "expected"),
    [
        # one value restated under a multi-valued key: merged, the newer wording kept
        ("Likes skiing in the trees", "Loves tree runs", "same", {"Loves tree runs"}),
        # a refined value replaces the older
        (
            "Aime la musique de la Renaissance",
            "Adore les madrigaux italiens",
            "refines",
            {"Adore les madrigaux italiens"},
        ),
        # a conflict under a multi-valued key is a second value: both kept
        (
            "Likes skiing in the trees",
            "Enjoys steep mogul fields",
            "conflict",
            {"Likes skiing in the trees", "Enjoys steep mogul fields"},
        ),
    ],
)
def test_the_pair_model_under_one_multi_valued_key_merges_only(
    older: str, newer: str, label: str, expected: set[str]
) -> None:
    _, active = run(
        older,
        newer,
        DIET,
        NEAR_DIET,
        older_changes=TERRAIN,
        newer_changes=TERRAIN,
        model=labelled_model(label),
    )
    assert active == expected


def test_two_multi_valued_keys_are_not_second_guessed() -> None:
    _, active = run(
        "Likes skiing in the trees",
        "Loves tree runs",
        DIET,
        NEAR_DIET,
        older_changes=TERRAIN,
        newer_changes=OTHER_KEY,
        model=labelled_model("same"),
    )
    assert active == {"Likes skiing in the trees", "Loves tree runs"}
