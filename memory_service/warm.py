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

:func:`warm_statements` is the other half, run in each child as it starts (it opens
connections, so never before the fork): the hot statements (open a session, save notes,
render, end, consolidate) compiled and run once on the child's own engine and first pooled
connection, in a transaction rolled back (``adapters/rolled_back.py``), so the child's first
task or request does not pay for them.
"""

from __future__ import annotations

import gc
import logging
import os
import secrets
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from memory_service.config import Settings

if TYPE_CHECKING:
    from memory_service.bootstrap import Container

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
    from memory_service.core.judgment.sentence_stage import default_sentence_stage
    from memory_service.core.privacy.learned import default_privacy_model
    from memory_service.core.privacy.sensitive import learned_model, learned_stage

    load_pii_detector(settings.spacy_model)
    load_identifier_detector()
    load_embedder(settings.embedding_dimensions)
    default_model()
    # The stage file is checked against the judgment model here (a mismatch stops the
    # process); the sentence encoder itself is loaded in each child, on its first note in the
    # band: its OpenMP runtime is not carried across a fork.
    default_sentence_stage()
    default_slot_model()
    default_pair_model()
    learned_model()
    # The special categories' stage file, checked against their model (a mismatch stops the
    # process); its encoder, like the judgment stage's, is loaded in each child.
    learned_stage()
    if settings.privacy_backstop:
        default_privacy_model()  # a bad model file stops the process here, not at a note
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


# Made-up notes, never anyone's: durable ones the guards accept, a repeat (a duplicate),
# one refused (an e-mail address) and a passing state.
_WARM_NOTES: tuple[dict[str, object], ...] = (
    {"text": "Now uses Vim as editor.", "keywords": ["editor"]},
    {"text": "Prefers aisle seats on long flights.", "keywords": ["seats"]},
    {"text": "Prefers aisle seats on long flights.", "keywords": ["seats"]},
    {"text": "Drinks green tea every morning.", "keywords": ["tea"]},
    {"text": "Works from the Lisbon office.", "keywords": ["office"]},
    {"text": "Is tired today."},
    {"text": "Write to warm.up@example.com for the invoices.", "keywords": ["invoices"]},
)
# Round 1 meets a new subject, round 2 a returning one with global memories: between them
# every statement of the hot paths. psycopg's prepared statements would need five runs, but
# they do not survive the rollback (nor the ROLLBACK of any read-only unit of work).
WARM_ROUNDS = 2
WARM_BUDGET_SECONDS = 1.5
# Set to 0 to start cold (a benchmark's comparison; a process that must start at once).
WARM_SWITCH = "MEMORY_SERVICE_WARM_STATEMENTS"


class _OutOfTime(Exception):
    """The warm-up went past twice its budget (a slow or locked database): it stops."""


class _NoTasks:
    """The warm-up's task queue: a consolidation it ends is never sent anywhere."""

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        return None


def warm_statements(
    container: Container,
    *,
    rounds: int = WARM_ROUNDS,
    budget_seconds: float = WARM_BUDGET_SECONDS,
) -> int:
    """Run the hot paths ``rounds`` times on a throwaway tenant, all rolled back; returns
    the rounds run (0 on a failure, which is logged by a code and type and never raised:
    the process serves cold, as before). A round starts only within ``budget_seconds``.
    ``MEMORY_SERVICE_WARM_STATEMENTS=0`` skips it.

    Leaves no row in either database (the data's rolled back; the subject's key in a
    keyring of its own, in memory), no task, no metric, no audit event, no render in the
    cache and no log line of the services (logging below WARNING is off meanwhile, in a
    process that serves nothing yet). On SQLite the write lock is held for the warm-up's
    duration (a few hundred milliseconds), as by any write transaction.
    """
    from memory_service.adapters.crypto import KEY_BYTES, Keyring
    from memory_service.adapters.rolled_back import rolled_back_units_of_work
    from memory_service.adapters.sql.keys import KEY_PREFIX
    from memory_service.core.model import Role
    from memory_service.core.scope import TenantScope
    from memory_service.services import consolidation, context, notes, sessions

    if not container.settings.warm_statements:
        log.info("statements not warmed in process %d (%s=0)", os.getpid(), WARM_SWITCH)
        return 0
    start = time.monotonic()

    def in_time() -> None:
        if time.monotonic() - start > 2 * budget_seconds:
            raise _OutOfTime

    scope = TenantScope(f"warm-up-{secrets.token_hex(8)}", Role.AGENT, "system:warm-up")
    subject = "warm-up-subject-1"
    keyring = Keyring(os.urandom(KEY_BYTES))  # its keys in memory, never in the key store
    clock = container.clock
    done = 0
    previous = logging.root.manager.disable
    logging.disable(logging.INFO)
    try:
        # A request's bearer-key lookup, of a key nobody holds (not cached when not found),
        # and the key store's read of a key (of no subject): reads, nothing found.
        container.keys.authenticate(KEY_PREFIX + secrets.token_urlsafe(32))
        container.keyring.store.wrapped_key(scope.tenant_id, subject, secrets.token_hex(8))
        with rolled_back_units_of_work(
            container.engine, keyring, clock, container.consolidation.embedder
        ) as units:
            note_deps = replace(container.notes, uow_factory=units)
            context_deps = replace(container.context, uow_factory=units, reads=units, cache=None)
            merge_deps = replace(container.consolidation, uow_factory=units, judge=None)
            while done < rounds and time.monotonic() - start < budget_seconds:
                session = sessions.open_session(scope, subject, uow_factory=units, clock=clock)
                for note in _WARM_NOTES:
                    in_time()
                    notes.save_memory_note(scope, session.id, dict(note), deps=note_deps)
                notes.save_memory_note(
                    scope, session.id, dict(_WARM_NOTES[0]), dry_run=True, deps=note_deps
                )
                context.render_context(scope, subject, session_id=session.id, deps=context_deps)
                in_time()
                sessions.end_session(
                    scope, session.id, uow_factory=units, clock=clock, tasks=_NoTasks()
                )
                consolidation.consolidate_session(scope.tenant_id, session.id, deps=merge_deps)
                in_time()
                context.render_context(scope, subject, deps=context_deps)
                done += 1
    except Exception as exc:  # by type only: a message could quote a URL or a statement
        logging.disable(previous)
        log.warning("warm_up_failed: statements not warmed (%s); serving cold", type(exc).__name__)
        return 0
    finally:
        logging.disable(previous)
    log.info(
        "statements warmed in process %d: %d rounds in %.0f ms",
        os.getpid(),
        done,
        (time.monotonic() - start) * 1000,
    )
    return done
