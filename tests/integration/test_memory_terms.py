"""The blind term index behind consolidation candidates, on the fake, SQLite and PostgreSQL.

``find_global_candidates`` finds a subject's active global memories by their candidate
terms; what the SQL stores keep of those terms is a keyed hash that goes with the subject.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.sql.retention import SqlRetentionStore
from memory_service.adapters.sql.terms import reindex_subjects
from memory_service.adapters.tables import MemoryTermRow
from memory_service.core.consolidation import candidate_terms
from memory_service.core.model import Memory, MemoryScope, MemoryStatus
from tests.integration.conftest import Store
from tests.integration.records import make_memory

SUBJECT = "cust-001"
OTHER_SUBJECT = "cust-002"
EDITOR = "Uses VS Code as editor."
NOTE = "Now uses Vim as editor."


def _note(
    tenant_id: str, subject_id: str, store: Store, text: str, keywords: tuple[str, ...]
) -> Memory:
    """The note a lookup is made for; never stored, only its terms are used."""
    return make_memory(tenant_id, subject_id, store.clock.now(), text=text, keywords=keywords)


def _add(store: Store, tenant_id: str, *memories: Memory) -> None:
    with store.uow_factory(tenant_id) as uow:
        for memory in memories:
            uow.memories.add(memory)
        uow.commit()


def _global(
    store: Store, tenant_id: str, text: str, *, subject_id: str = SUBJECT, **changes: object
) -> Memory:
    """An active global memory filed under "editor" unless ``changes`` say otherwise."""
    fields: dict[str, object] = {"text": text, "keywords": ("editor",), **changes}
    return make_memory(tenant_id, subject_id, store.clock.now(), **fields)


def _find(
    store: Store,
    tenant_id: str,
    text: str = NOTE,
    *,
    keywords: tuple[str, ...] = ("editor",),
    subject_id: str = SUBJECT,
    purposes: tuple[str, ...] = ("general",),
    limit: int = 10,
) -> list[str]:
    terms = candidate_terms(_note(tenant_id, subject_id, store, text, keywords))
    with store.uow_factory(tenant_id) as uow:
        found = uow.memories.find_global_candidates(
            subject_id, terms, purposes=purposes, limit=limit
        )
    return [memory.id for memory in found]


def _term_rows(store: Store, tenant_id: str) -> list[tuple[str, str, str, str]]:
    assert store.engine is not None
    with Session(store.engine) as db:
        rows = db.execute(
            select(
                MemoryTermRow.memory_id,
                MemoryTermRow.term_hash,
                MemoryTermRow.tenant_id,
                MemoryTermRow.subject_id,
            ).where(MemoryTermRow.tenant_id == tenant_id)
        ).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def _assert_filed(store: Store, tenant_id: str, *memories: Memory) -> None:
    """On SQL, exactly these memories hold term rows, each one per candidate term."""
    if store.engine is not None:
        held = sorted(row[0] for row in _term_rows(store, tenant_id))
        assert held == sorted(m.id for m in memories for _ in candidate_terms(m))


def test_an_active_global_sharing_a_term_is_found_and_an_unrelated_one_is_not(
    store: Store, tenant_id: str
) -> None:
    editor = _global(store, tenant_id, EDITOR)
    seats = _global(store, tenant_id, "Prefers aisle seats.", keywords=("seat",))
    _add(store, tenant_id, editor, seats)

    assert _find(store, tenant_id) == [editor.id]
    assert _find(store, tenant_id, "Prefers window seats.", keywords=("seat",)) == [seats.id]


def test_an_exact_duplicate_without_content_words_is_found_by_its_text(
    store: Store, tenant_id: str
) -> None:
    # Stop words only: the whole normalised text is the one term they share.
    bare = _global(store, tenant_id, "It is what it is.", keywords=())
    _add(store, tenant_id, bare)

    assert _find(store, tenant_id, "it is what it is", keywords=()) == [bare.id]


def test_another_subject_or_tenant_is_never_found(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    _add(store, tenant_id, _global(store, tenant_id, EDITOR, subject_id=OTHER_SUBJECT))
    _add(store, other_tenant_id, _global(store, other_tenant_id, EDITOR))

    assert _find(store, tenant_id) == []
    assert _find(store, other_tenant_id, subject_id=OTHER_SUBJECT) == []


def test_session_notes_other_purposes_and_inactive_globals_are_never_found(
    store: Store, tenant_id: str
) -> None:
    now = store.clock.now()
    added = [
        _global(store, tenant_id, EDITOR, scope=MemoryScope.SESSION),
        _global(store, tenant_id, EDITOR, purpose="travel"),
        _global(store, tenant_id, EDITOR, status=MemoryStatus.SUPERSEDED, superseded_at=now),
        _global(store, tenant_id, EDITOR, status=MemoryStatus.EXPIRED, expires_at=now),
    ]
    _add(store, tenant_id, *added)

    assert _find(store, tenant_id) == []
    travel = _find(store, tenant_id, purposes=("travel",))
    assert len(travel) == 1
    _assert_filed(store, tenant_id, *[m for m in added if m.id in travel])


def test_a_save_takes_a_memory_out_of_the_index_and_follows_its_text(
    store: Store, tenant_id: str
) -> None:
    editor = _global(store, tenant_id, EDITOR)
    _add(store, tenant_id, editor)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.save(replace(editor, status=MemoryStatus.DELETED))
        uow.commit()
    assert _find(store, tenant_id) == []
    _assert_filed(store, tenant_id)

    cellist = replace(editor, text="Plays the cello on weekends.", keywords=())
    with store.uow_factory(tenant_id) as uow:
        uow.memories.save(cellist)
        uow.commit()
    assert _find(store, tenant_id) == []
    assert _find(store, tenant_id, "Plays the piano.") == [editor.id]
    _assert_filed(store, tenant_id, cellist)


def test_a_merge_that_keeps_the_text_keeps_the_memory_findable(
    store: Store, tenant_id: str
) -> None:
    editor = _global(store, tenant_id, EDITOR)
    _add(store, tenant_id, editor)
    with store.uow_factory(tenant_id) as uow:
        held = uow.memories.get(editor.id)
        assert held is not None
        uow.memories.save(replace(held, updated_at=store.clock.now() + timedelta(hours=1)))
        uow.commit()

    assert _find(store, tenant_id) == [editor.id]
    _assert_filed(store, tenant_id, editor)


def test_expiry_takes_a_memory_out_of_the_index(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    editor = _global(store, tenant_id, EDITOR, expires_at=now - timedelta(days=1))
    _add(store, tenant_id, editor)
    with store.uow_factory(tenant_id) as uow:
        assert [m.memory_id for m in uow.memories.expire([editor.id], now=now)] == [editor.id]
        uow.commit()

    assert _find(store, tenant_id) == []
    _assert_filed(store, tenant_id)


def test_rarer_shared_terms_rank_first_and_the_limit_holds(store: Store, tenant_id: str) -> None:
    # Every distractor shares "uses" with the note; only the VS Code memory shares "editor".
    distractors = [
        _global(store, tenant_id, f"Uses tool {i} for reports.", keywords=()) for i in range(5)
    ]
    editor = _global(store, tenant_id, EDITOR)
    _add(store, tenant_id, *distractors, editor)

    found = _find(store, tenant_id, limit=3)
    assert len(found) == 3
    assert found[0] == editor.id
    # Equal scores: the larger ids first, as in the core's candidate index.
    assert found[1:] == sorted((d.id for d in distractors), reverse=True)[:2]


def test_erasure_leaves_no_term_rows(store: Store, tenant_id: str) -> None:
    _add(store, tenant_id, _global(store, tenant_id, EDITOR))
    _add(store, tenant_id, _global(store, tenant_id, EDITOR, subject_id=OTHER_SUBJECT))
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()

    assert _find(store, tenant_id) == []
    if store.engine is not None:
        assert {row[3] for row in _term_rows(store, tenant_id)} == {OTHER_SUBJECT}


def test_the_stored_terms_are_keyed_hashes_that_reveal_no_word(
    sql_backed_store: Store, tenant_id: str
) -> None:
    store = sql_backed_store
    mine = _global(store, tenant_id, "Uses zanzibar-quokka as editor.")
    theirs = _global(store, tenant_id, "Uses zanzibar-quokka as editor.", subject_id=OTHER_SUBJECT)
    _add(store, tenant_id, mine, theirs)

    rows = _term_rows(store, tenant_id)
    words = {term.split(":", 1)[-1] for term in candidate_terms(mine)} | {"zanzibar", "quokka"}
    assert len(rows) == 2 * len(candidate_terms(mine))
    for row in rows:
        for value in row:
            assert not any(word in value for word in words)
    # The same words hash differently for another subject: no cross-subject matching.
    hashes = {
        subject: {row[1] for row in rows if row[3] == subject}
        for subject in (SUBJECT, OTHER_SUBJECT)
    }
    assert hashes[SUBJECT].isdisjoint(hashes[OTHER_SUBJECT])


def test_the_purge_removes_the_term_rows_with_the_memories(
    sql_backed_store: Store, tenant_id: str
) -> None:
    store = sql_backed_store
    assert store.engine is not None
    # Far in the past, so memories of other tests in the shared database are never due.
    cutoff = datetime(1990, 1, 1, tzinfo=UTC)
    # Still active past its expiry: the nightly expiry has not marked it yet.
    expiring = _global(store, tenant_id, EDITOR, expires_at=cutoff - timedelta(days=1))
    _add(store, tenant_id, expiring)
    assert {row[0] for row in _term_rows(store, tenant_id)} == {expiring.id}

    purged = SqlRetentionStore(store.engine).purge_expired(
        cutoff, limit=100, at=store.clock.now(), actor="system:retention"
    )

    assert purged == 1
    assert _term_rows(store, tenant_id) == []


def test_reindex_rebuilds_a_subjects_terms(
    sql_backed_store: Store, tenant_id: str, keyring: Keyring
) -> None:
    store = sql_backed_store
    assert store.engine is not None
    editor = _global(store, tenant_id, EDITOR)
    _add(store, tenant_id, editor, _global(store, tenant_id, EDITOR, scope=MemoryScope.SESSION))
    with Session(store.engine) as db:
        db.execute(delete(MemoryTermRow).where(MemoryTermRow.tenant_id == tenant_id))
        db.commit()
    assert _find(store, tenant_id) == []

    report = reindex_subjects(store.engine, keyring, tenant_id=tenant_id)
    again = reindex_subjects(store.engine, keyring, tenant_id=tenant_id)

    assert (report.subjects, report.memories) == (1, 1)
    assert again == report
    assert _find(store, tenant_id) == [editor.id]
    with Session(store.engine) as db:
        count = db.scalar(
            select(func.count()).where(MemoryTermRow.tenant_id == tenant_id)  # type: ignore[arg-type]
        )
    assert count == len(candidate_terms(editor))
