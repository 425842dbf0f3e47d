"""Leak classes of the session-8 sets closed by structure (branch leaks5), and look-alikes.

A password wrapped in brackets, quotes or sentence punctuation; a code brought by a verb of
getting in ("get in with", "on rentre avec", "si entra con") or by a German verb at the
clause's end ("mit 4821 entschärfen"); a dial turned in numbers with direction words; a
combination after "abre en"; a password after "with" that opens a computer, a phone or a
network, or joins one. The notes are made up; none is from an evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str) -> set[str]:
    return {reason.code.value for reason in check_privacy(text, pii=NoNer(), identifiers=LIBRARY)}


@pytest.mark.parametrize(
    "text",
    [
        # a password wrapped in brackets, quotes or a sentence's end
        "Il nous a donné le code du compte en clair (Marine#Brest42).",
        "Hat uns das Kennwort genannt (»Blume!77«), für später.",
        "The tablet unlocks with maple*2003.",
        # getting in with a code
        "Back door of the shop: you get in with 5816, then lift the handle.",
        "Au local, on rentre avec 7720C.",
        "Al garage si entra con 6604.",
        "A la bodega se entra con 9137.",
        "Garagentor: mit 4471 entriegeln, danach Licht an",
        # a dial turned
        "Gym safe: turn to 31, back to 7, forward to 22.",
        "Wandtresor: erst 18 rechts, dann 5 links, dann 40.",
        "Il lucchetto si apre girando su 4, 19, 33.",
        "El candado del trastero abre en 17-03-29.",
        # a password after "with" that opens or joins
        "Home office PC opens with the cat's name and a number: Mittens2011.",
        "Visitors connect to CafeNet with olive-73-river.",
        # keys joined by dashes with the confirm key; a code announced by its digit count
        "Das Tor machst du mit 4-1-9-7-Raute auf.",
        "The six digits printed under the modem are 482 913; the tablet wants them.",
        "Les quatre chiffres au dos du boîtier sont 7305.",
        # the answer to what a bank or a support line asks, the question described
        "When the insurer asks about his first school, it's Ashgrove.",
        "Quand la banque demande le nom de sa première rue, c'est Verdier.",
    ],
)
def test_told_values_are_secrets(text: str) -> None:
    assert "secret" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "We get in with 4 friends most Fridays.",
        "On rentre avec 1500 euros de courses.",
        "Turn left at the safe house, then right after 12, 14 and 16 Elm Street.",
        "The shop opens with a new owner in March.",
        "Joined the hiking club with two colleagues last spring.",
        "Prefers Python (3.12) for scripts.",
        "Uses the laptop with Ubuntu for work.",
        "Mit 2019 beginnt die neue Saison.",
        "The two digits on the jersey are 23.",
        "The four numbers she picked are 3, 18, 27 and 40.",
        "When people ask about her hometown, it's Lyon.",
        "When the bank asks for ID, it's usually fine.",
    ],
)
def test_look_alikes_are_kept(text: str) -> None:
    assert "secret" not in codes(text)
