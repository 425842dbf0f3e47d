"""The embedding port: texts to unit-length vectors, for candidates by meaning.

A static embedding (a table of token vectors, averaged) is enough to put a paraphrase or a
contradicted fact among a note's few nearest memories, which is all consolidation asks of
it: vectors *find* candidates; the rules, the attribute or the judge *decide*. The
adapter ships its weights inside a package (nothing is downloaded at run time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    @property
    def model(self) -> str:
        """Names the model and its dimensions; vectors of another model are not compared."""
        ...

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        """One unit-length vector per text, in order."""
        ...
