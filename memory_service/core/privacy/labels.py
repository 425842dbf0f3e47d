"""Values given under a label: "<label>: <value>".

Agents write a value after a colon (or "=") under a label phrase, and the label's words say
what the value is wherever they stand in it: "Targa per l'abbonamento al lavaggio: FZ 318 KM",
"Tessera fedeltà del negozio di fermodellismo: FERRO#IT-30921", "Escape-room club 'Keymaster
tier' card: KM-Δ-5530". The cue readers (:mod:`.identifiers`, :mod:`.plates`) look for a value
a few words after their cue; this module hands them the whole label as the cue, so the value
right after the colon is read as it would be right after the cue. It only finds the labels;
what a value must look like to be refused stays with the readers.

A label runs from the start of its clause (the note's start, or after ". ", "; ", "! ", "? ",
a new line) to the colon, over at most :data:`MAX_LABEL_WORDS` words: a longer run is a
sentence that happens to hold a colon, not a label.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_LABEL_WORDS = 10
# The colon or "=" that ends a label; a clock time's colon ("10:30") and a URL's ("https:")
# are not one: a label's colon is followed by a space, or is "=", or ends the text.
_END = re.compile(r"\s*(?::(?=\s|$)|=)\s*")
# Where a clause starts: the note's start or after a sentence's or a list's end.
_CLAUSE_END = re.compile(r"[.!?;\n](?:\s|$)|[\n]")


@dataclass(frozen=True)
class Labelled:
    """A label (its text) and where its value starts in the note."""

    label: str
    value_start: int


def labelled_values(text: str) -> Iterator[Labelled]:
    """Every label of ``text`` and where the value after it starts (see the module)."""
    for end in _END.finditer(text):
        if end.end() >= len(text):
            continue
        starts = [match.end() for match in _CLAUSE_END.finditer(text, 0, end.start())]
        start = starts[-1] if starts else 0
        label = text[start : end.start()].strip()
        if label and len(label.split()) <= MAX_LABEL_WORDS:
            yield Labelled(label, end.end())
