"""The syntax port: which words of a note are its verbs, so a value can be told from the
predicate that states it.

Two notes of one multi-valued attribute ("languages_learning") holding the same value under
another verb ("Is learning Japanese" / "Studies Japanese") are one value reworded; the same
verb with another value ("Plays tennis" / "Plays padel") is a second value. Words alone
cannot tell which word is the verb: a part-of-speech tagger can. The core imports no
adapter: an adapter (``adapters/spacy_syntax``) tags the text; the plan asks it only for the
few pairs that reach the rule, once per memory, and keeps the answers in memory for that
plan alone.
"""

from __future__ import annotations

from typing import Protocol


class Syntax(Protocol):
    def verbs(self, text: str) -> frozenset[str]:
        """The verbs and auxiliaries of the note's predicate, before its value ("Is learning
        Japanese": "is", "learning"), lower-case and accent-folded; empty when the note
        does not open with its predicate."""
        ...
