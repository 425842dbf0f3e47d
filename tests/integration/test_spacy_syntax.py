"""The syntax adapter on spaCy's small taggers: a note's predicate verbs, before its value."""

from __future__ import annotations

import pytest

from memory_service.adapters.spacy_syntax import SpacySyntax


@pytest.fixture(scope="module")
def syntax() -> SpacySyntax:
    return SpacySyntax()


@pytest.mark.parametrize(
    ("text", "verbs"),
    [
        # Subject-less notes the small models read as nouns or names without a subject.
        ("Studies Japanese", {"studies"}),
        ("Is learning Japanese", {"is", "learning"}),
        ("Étudie le japonais", {"etudie"}),
        ("Apprend le japonais", {"apprend"}),
        # A value misread as a verb after the note's first noun or adjective is no verb.
        ("Is allergic to shellfish", {"is"}),
        ("Aime la cuisine vietnamienne", {"aime"}),
        # A note opening with its subject has no predicate before its value.
        ("Dog eats grain-free kibble", set()),
        ("", set()),
    ],
)
def test_the_predicate_verbs_before_the_value(
    syntax: SpacySyntax, text: str, verbs: set[str]
) -> None:
    assert syntax.verbs(text) == verbs
