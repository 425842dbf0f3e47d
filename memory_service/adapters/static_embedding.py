"""Static embeddings from the WordLlama wheel: token vectors averaged, no download.

The ``wordllama`` wheel (MIT, from the WordLlama project) ships
``wordllama/weights/l2_supercat_256.safetensors`` (32,000 x 256 float16, one tensor
``embedding.weight``: token embeddings of the Llama 2 vocabulary, trained to embed
sentences) and the matching tokenizer ``wordllama/tokenizers/l2_supercat_tokenizer_config.json``.
Its own loader looks for a ``tokenizer/`` folder the wheel does not have and may then try
to download, so both files are read here directly, from the installed package, and nothing
else is touched: no network, no cache directory.

A text's vector is the mean of its tokens' rows, truncated to the first ``dimensions``
(the model is trained Matryoshka-style, so a prefix is a smaller model), normalised to unit
length. About 20 µs per short note on one core.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from memory_service.config import ConfigurationError

_WEIGHTS = "weights/l2_supercat_256.safetensors"
_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
_TENSOR = "embedding.weight"
DEFAULT_DIMENSIONS = 256


class WordLlamaEmbedder:
    """Implements :class:`memory_service.core.consolidation.embedding.Embedder`."""

    def __init__(self, table: np.ndarray, tokenizer: Tokenizer, dimensions: int) -> None:
        if not 0 < dimensions <= table.shape[1]:
            raise ConfigurationError(f"embedding dimensions must be 1 to {table.shape[1]}")
        self._table = np.ascontiguousarray(table[:, :dimensions], dtype=np.float32)
        self._tokenizer = tokenizer
        self.dimensions = dimensions
        self.model = f"wordllama-l2-supercat-{dimensions}"

    @classmethod
    def load(cls, dimensions: int = DEFAULT_DIMENSIONS) -> WordLlamaEmbedder:
        return cls(*_load_package_files(), dimensions)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors as rows of a float32 matrix (a text without tokens: all zeros)."""
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        # One text at a time: encode_batch's thread pool costs more than it saves on the
        # handful of short notes a consolidation embeds, and competes for busy cores.
        for row, text in enumerate(texts):
            encoding = self._tokenizer.encode(text, add_special_tokens=False)
            ids = [i for i in encoding.ids if 0 <= i < self._table.shape[0]]
            if not ids:
                continue
            vector = self._table[ids].mean(axis=0)
            norm = float(np.linalg.norm(vector))
            if norm > 0:
                out[row] = vector / norm
        return out

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [tuple(row) for row in self.embed_array(texts).tolist()]


@cache
def _load_package_files() -> tuple[np.ndarray, Tokenizer]:
    """The wheel's two files, once per process (16 MB, about half a second)."""
    try:
        package = resources.files("wordllama")
        with resources.as_file(package.joinpath(_WEIGHTS)) as weights:
            table = load_file(str(weights))[_TENSOR]
        with resources.as_file(package.joinpath(_TOKENIZER)) as tokenizer_file:
            tokenizer = Tokenizer.from_file(str(tokenizer_file))
    except (ModuleNotFoundError, FileNotFoundError, KeyError) as exc:
        raise ConfigurationError(
            "the wordllama package with its shipped weights is required for embeddings"
        ) from exc
    return table, tokenizer
