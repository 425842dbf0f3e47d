"""Session 10 (consol8, issue 12): an unmarked update the newer note names the main value of
the older note's frame; one multi-valued attribute's value under another verb (the syntax
port)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from memory_service.core.consolidation.plan import MergePlan, plan_consolidation
from memory_service.core.consolidation.resolution import DecisionReason
from memory_service.core.consolidation.rules import (
    PairRelation,
    classify_pair,
    same_value,
    terms_of,
)
from memory_service.core.consolidation.syntax import Syntax
from memory_service.core.model import Attribute, Cardinality, MemoryScope
from tests.factories import AT, make_memory


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Shoots on a Nikon Z6", "Shoots on a Fujifilm X-T5 as main camera"),
        ("Reads thrillers", "Mostly reads science fiction"),
        ("Écrit avec un stylo plume", "Écrit surtout avec un crayon"),
    ],
)
def test_a_newer_main_value_in_the_same_frame_replaces(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # The older value is the main one, the newer a second value beside it.
        ("Shoots on a Fujifilm X-T5 as main camera", "Shoots on a Nikon Z6"),
        # No frame shared beyond the attitude: two facts.
        ("Likes Thai cuisine", "Favourite drink is green tea"),
        # An added value.
        ("Shoots on a Nikon Z6", "Also shoots on a Fujifilm X-T5 as main camera"),
    ],
)
def test_a_main_value_does_not_replace_otherwise(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED


class _Verbs:
    """A syntax port reading the given words as each note's predicate."""

    def __init__(self, verbs: dict[str, frozenset[str]]) -> None:
        self._verbs = verbs
        self.asked: list[str] = []

    def verbs(self, text: str) -> frozenset[str]:
        self.asked.append(text)
        return self._verbs.get(text, frozenset())


LEARNING = Attribute("languages_learning", Cardinality.MULTI)
_PREDICATES = {
    "Is learning Japanese": frozenset({"is", "learning"}),
    "Studies Japanese": frozenset({"studies"}),
    "Plays tennis": frozenset({"plays"}),
    "Plays padel": frozenset({"plays"}),
    "Apprend le japonais": frozenset({"apprend"}),
    "Étudie le japonais": frozenset({"etudie"}),
}


@pytest.mark.parametrize(
    ("older", "newer", "same"),
    [
        ("Is learning Japanese", "Studies Japanese", True),
        ("Apprend le japonais", "Étudie le japonais", True),
        # The same verb, another value: a second value.
        ("Plays tennis", "Plays padel", False),
        # No predicate read on one side (a note opening with its subject): fail closed.
        ("Is learning Japanese", "Japanese lessons", False),
    ],
)
def test_same_value_under_another_verb(older: str, newer: str, same: bool) -> None:
    verbs = _Verbs(_PREDICATES)
    assert (
        same_value(terms_of(older), terms_of(newer), verbs.verbs(older), verbs.verbs(newer)) is same
    )


def _plan(texts: list[str], attribute: Attribute, syntax: Syntax | None) -> MergePlan:
    notes = [
        make_memory(
            text,
            at=AT - timedelta(minutes=10 - i),
            scope=MemoryScope.SESSION,
            keywords=(),
            attribute=attribute,
        )
        for i, text in enumerate(texts)
    ]
    counter = itertools.count(1)
    return plan_consolidation(
        notes, [], now=AT, new_id=lambda: f"new-{next(counter)}", syntax=syntax
    )


def test_one_multi_valued_attribute_merges_the_same_value_under_another_verb() -> None:
    result = _plan(["Is learning Japanese", "Studies Japanese"], LEARNING, _Verbs(_PREDICATES))
    assert [m.text for m in result.created] == ["Studies Japanese"]
    assert DecisionReason.SAME_VALUE in {d.reason for d in result.decisions}


def test_without_syntax_or_with_another_value_both_stay() -> None:
    without = _plan(["Is learning Japanese", "Studies Japanese"], LEARNING, None)
    assert sorted(m.text for m in without.created) == ["Is learning Japanese", "Studies Japanese"]
    other = _plan(["Plays tennis", "Plays padel"], LEARNING, _Verbs(_PREDICATES))
    assert sorted(m.text for m in other.created) == ["Plays padel", "Plays tennis"]


def test_another_attribute_is_never_read_for_its_verbs() -> None:
    verbs = _Verbs(_PREDICATES)
    result = _plan(
        ["Is learning Japanese", "Studies Japanese"],
        Attribute("languages_learning", Cardinality.SINGLE),
        verbs,
    )
    assert len(result.created) == 1  # the single-valued attribute decides alone
    assert verbs.asked == []
