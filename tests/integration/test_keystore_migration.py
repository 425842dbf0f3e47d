"""Revision 0006 moves the wrapped data keys out of the memory database into the key store."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import inspect, text

from memory_service.adapters import migrate
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from tests.support.fakes import FixedClock


def test_existing_keys_move_to_the_key_store_and_the_data_still_opens(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'memory.db'}"
    migrate.upgrade(url, "0004")
    master = secrets.token_bytes(32)
    old_style = Keyring(master)  # wraps exactly as before the move
    cipher_text = {}
    engine = create_engine_for(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO tenants (id, name, created_at, policy) "
                "VALUES ('t-1', 't-1', :at, '{}')"
            ),
            {"at": datetime.now(UTC)},
        )
        for subject in ("s-1", "s-2"):
            wrapped = old_style.new_wrapped_key("t-1", subject)
            cipher = old_style.cipher("t-1", subject, wrapped)
            cipher_text[subject] = cipher.encrypt(b'{"plan": "pro"}', kind="state", row_id=subject)
            connection.execute(
                text(
                    "INSERT INTO subjects (tenant_id, subject_id, wrapped_data_key, "
                    "state_ciphertext, state_updated_at, created_at) "
                    "VALUES ('t-1', :s, :k, :c, :at, :at)"
                ),
                {"s": subject, "k": wrapped, "c": cipher_text[subject], "at": datetime.now(UTC)},
            )
    engine.dispose()

    migrate.upgrade(url)

    engine = create_engine_for(url)
    try:
        assert "wrapped_data_key" not in {
            c["name"] for c in inspect(engine).get_columns("subjects")
        }
        store = SqlDataKeyStore(create_engine_for(f"sqlite:///{tmp_path / 'keys.db'}"))
        keyring = Keyring(master, store)
        keyring.check_master_key()  # the keys moved are the canary's reference
        with SqlUnitOfWorkFactory(engine, keyring, FixedClock())("t-1") as uow:
            for subject in ("s-1", "s-2"):
                state = uow.subjects.get_state(subject)
                assert state is not None and state.state == {"plan": "pro"}
        store.engine.dispose()
    finally:
        engine.dispose()
