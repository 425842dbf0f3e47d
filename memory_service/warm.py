"""Load the guards' models in a parent process, before it forks its workers.

The Celery worker (prefork pool) and ``memory-service serve --workers N`` fork children
that each build a container. Loaded in the parent first, the models (Presidio with its
spaCy pipelines, the python-stdnum identifier formats, the two learned guards, the static
embedding, the tokenizer) are already in every child's memory: pages shared copy-on-write
instead of one copy per child, and a child's first task or request as fast as its tenth
instead of paying seconds of loading.

Each loader is cached per process (``functools.cache``), so a child's ``build_container``
finds what the parent loaded. Nothing here opens a database connection, a socket or a
thread, so the fork stays safe. :func:`models_loaded_by` names the process that loaded
them: a child that reports another pid than its own runs on its parent's models.
"""

from __future__ import annotations

import gc
import logging
import os

from memory_service.config import Settings

log = logging.getLogger(__name__)

_loaded_by: int | None = None


def warm_models(settings: Settings) -> None:
    """Load every model these settings use, once per process; then freeze the heap."""
    global _loaded_by
    if _loaded_by is not None:
        return
    # Fork-safety of the HF tokenizer behind the embedding: no thread pool to inherit.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from memory_service.adapters.tiktoken_counter import TiktokenCounter
    from memory_service.bootstrap import (
        load_embedder,
        load_identifier_detector,
        load_pii_detector,
    )
    from memory_service.core.consolidation.pairs import default_pair_model
    from memory_service.core.consolidation.slots import default_slot_model
    from memory_service.core.judgment import default_model
    from memory_service.core.privacy.sensitive import learned_model

    load_pii_detector(settings.spacy_model)
    load_identifier_detector()
    load_embedder(settings.embedding_dimensions)
    default_model()
    default_slot_model()
    default_pair_model()
    learned_model()
    TiktokenCounter(settings.tokenizer_model)  # fills tiktoken's own per-process cache
    # The models live as long as the process: out of the collector's sight, so a child's
    # collections never write to (and so never copy) the pages it shares with its parent.
    gc.collect()
    gc.freeze()
    _loaded_by = os.getpid()
    log.info("models loaded in process %d, before any worker starts", _loaded_by)


def models_loaded_by() -> int | None:
    """The pid of the process that ran :func:`warm_models` (a parent, after a fork)."""
    return _loaded_by
