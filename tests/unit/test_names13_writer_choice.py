"""names13: the name model's regularisation is chosen on writers it never saw, and the shipped
model is trained on every corpus, names_h and names_i included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from memory_service.adapters.names_dictionary import RARE, load_first_names
from memory_service.core.privacy.name_model import load_name_model
from tests.support.tools import load_tool

MODEL = load_name_model(load_first_names(), load_first_names(max_frequency=RARE))


def _train_names() -> Any:
    return load_tool("train_names")


def _examples(train: Any) -> list[Any]:
    rows = []
    contexts = {
        "names_x": ("Collects the vinyl of {n} every year.", "Borrowed a drill from {n} today."),
        "names_y": ("Wears a {n} watch to work.", "Calls {n} about the roof."),
        train.GENERATED: ("Reads every {n} novel.", "Had lunch with {n} on Friday."),
    }
    people = ("Ola Berg", "Ines Roca", "Tom Vidal", "Eva Lund", "Ugo Sala", "Ana Pons")
    for source, (public, private) in contexts.items():
        for i, name in enumerate(people):
            for template, kind in ((public, "brand"), (private, "private_person")):
                text = template.format(n=name)
                group = f"{source}:{i}:{kind}"
                row = {"text": text, "spans": [{"span": name, "kind": kind}], "group": group}
                rows += train.examples_of(row, source)
    return rows


def test_each_writer_is_scored_by_a_model_that_never_saw_it() -> None:
    train = _train_names()
    seen = _examples(train)
    given, rare = frozenset({"ola", "ines", "tom", "eva", "ugo", "ana"}), frozenset[str]()
    public, scores = train.writer_scores(seen, 1.0, 17, given, rare)
    hand = [e for e in seen if e.source != train.GENERATED]
    assert len(scores) == len(hand) and public.tolist() == [e.public for e in hand]
    fitted = train.train_model(seen, 1.0, 17, given, rare)
    inside = np.array([fitted.public_score(e.text, e.start, e.end) for e in hand])
    # The writer's own contexts were learned by the model fitted on everything, not by the
    # one fitted without that writer: its public spans score lower there.
    assert (scores[public] < inside[public]).all()


def test_the_regularisation_is_the_best_ranking_where_few_private_spans_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    train = _train_names()
    public = np.array([True, True, True, False, False, False])
    ranked = {c: np.array([0.9, 0.8, 0.2, 0.7, 0.1, 0.05]) for c in train.C_GRID}
    ranked[0.5] = np.array([0.9, 0.8, 0.7, 0.2, 0.1, 0.05])  # every public above the private

    def scores(seen: Any, c: float, *_: Any) -> tuple[np.ndarray, np.ndarray]:
        return public, ranked[c]

    monkeypatch.setattr(train, "writer_scores", scores)
    chosen, by_c = train.choose_c([], 17, frozenset(), frozenset())
    assert chosen == 0.5 and set(by_c) == set(train.C_GRID)


def test_the_shipped_model_is_trained_on_every_corpus_and_says_how_c_was_chosen() -> None:
    metadata = MODEL.metadata
    assert {"names_h", "names_i"} <= set(metadata["sources"])
    assert str(metadata["C_from"]).startswith("leave-one-writer-out")


@pytest.mark.parametrize(
    ("text", "span"),
    [
        # names_i's private spans the start model let through at first sight
        ("Hochzeitsliste Linh & Oluwaseun: Fissler-Töpfe.", "Linh & Oluwaseun"),
        ("Lista nozze Linh & Oluwaseun: servizio Alessi.", "Linh & Oluwaseun"),
        ("library: study group w/ Oskar Lindqvist + Amaka for Kant seminar.", "Amaka"),
        ("Compra Stan Smith a su gemelo Stan cada cumpleaños.", "Stan Smith"),
    ],
)
def test_a_couple_or_a_classmate_named_in_a_list_is_not_kept(text: str, span: str) -> None:
    start = text.index(span)
    assert not MODEL.is_public(text, start, start + len(span))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Grew up on Larkspur Road, the answer she gives to 'first street'.", "Larkspur Road"),
        ("Lived on Juniper Avenue until she was twelve.", "Juniper Avenue"),
    ],
)
def test_a_street_lived_on_is_never_cleared_one_walked_along_is_left_to_the_model(
    text: str, span: str
) -> None:
    start = text.index(span)
    assert MODEL.public_score(text, start, start + len(span)) == 0.0
    walked = f"Likes walking along {span} on Sundays."
    start = walked.index(span)
    assert MODEL.public_score(walked, start, start + len(span)) > 0.0
