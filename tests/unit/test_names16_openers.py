"""names16: a note without a subject opens with its verb or its label, and the small English
model runs a name over it ("Likes Chekhov", "Speaks German"); a language or a nationality is
no name. Private people stay refused."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.name_context import past_sentence_opener
from tests.support.presidio import NoIdentifiers, refused_as_pii, shared_detector

GIVEN = frozenset({"joaquin", "maria", "nicholas"})


def _opened(text: str, span: str) -> str:
    start = text.index(span)
    return text[past_sentence_opener(text, start, start + len(span), GIVEN) : start + len(span)]


@pytest.mark.parametrize(
    ("text", "span", "judged"),
    [
        ("Likes Chekhov", "Likes Chekhov", "Chekhov"),
        ("Speaks German at a basic level", "Speaks German", "German"),
        ("Client Acme prefers invoices in euros", "Client Acme", "Acme"),
        ("Has a dog. Walks Rufus daily", "Walks Rufus", "Rufus"),
        # a given name of the dictionary opening the sentence is the name's own first word
        ("Joaquin Reyes belays on Sundays", "Joaquin Reyes", "Joaquin Reyes"),
        ("Nicholas Okafor teaches piano", "Nicholas Okafor", "Nicholas Okafor"),
        # inside a sentence, or a single word: nothing is left out
        ("Lunch with Ilse Brandt", "Ilse Brandt", "Ilse Brandt"),
        ("Chekhov", "Chekhov", "Chekhov"),
    ],
)
def test_the_opening_word_is_left_out_only_at_a_sentence_start(
    text: str, span: str, judged: str
) -> None:
    assert _opened(text, span) == judged


@pytest.mark.parametrize(
    "text",
    [
        "Speaks German at a basic level",
        "Speaks Dutch and German",
        "Enjoys Korean cuisine",
        "Enjoys Mexican cooking",
        "Likes Chekhov",
    ],
)
def test_a_language_a_nationality_or_a_name_past_the_verb_is_no_person(text: str) -> None:
    assert not refused_as_pii(shared_detector(), text)


@pytest.mark.parametrize(
    "text",
    [
        "Stylist is Maria",
        "Piano teacher is Mrs. Haldane",
        "belays with joaquin reyes",
        "Dinner with Sarah English on Fridays",
        "Has lunch with Mr English",
        "Her violin teacher is Daniel Okafor.",
        "Joaquin Reyes belays on Sundays",
        # a private person marked elsewhere keeps the model's span as it was
        "Cooks Ottolenghi with flatmate Sage, they split the Staub.",
        # German text read by the English model: its run over nouns is not trimmed
        "Großer Fan von Hans-Peter Lindqvist.",
    ],
)
def test_private_people_stay_refused(text: str) -> None:
    # as the service reads a note: the rules, then the learned backstop on what they accept
    reasons = check_privacy(text, pii=shared_detector(), identifiers=NoIdentifiers(), learned=True)
    assert any(reason.code.value == "pii" for reason in reasons)


def test_a_label_value_keeps_its_first_word() -> None:
    text = "Emergency contact: Oluwaseun Adebayo-Grant"
    assert _opened(text, "Oluwaseun Adebayo-Grant") == "Oluwaseun Adebayo-Grant"


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("Dog's name is Pepper", False),
        ("The cat's name is Moustache", False),
        ("My son's name is Leo", True),
        ("His girlfriend's name is Pepper", True),
        ("The dog walker's name is Anna", True),
    ],
)
def test_a_things_name_in_the_possessive_is_the_things(text: str, refused: bool) -> None:
    assert refused_as_pii(shared_detector(), text) is refused
