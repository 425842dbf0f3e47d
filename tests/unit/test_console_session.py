"""The console's session cookie and CSRF tokens, on their own: signed, expiring, bound."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_service.api.console.session import SessionSigner, derive_signing_key

NOW = datetime(2026, 1, 15, 9, 0, tzinfo=UTC)


def _signer(master_key: bytes = b"k" * 32) -> SessionSigner:
    return SessionSigner(derive_signing_key(master_key), timedelta(minutes=60))


def test_a_cookie_reads_back_until_it_expires() -> None:
    signer = _signer()
    session, cookie = signer.issue("key-1", "t-a", NOW)
    assert signer.read(cookie, NOW + timedelta(minutes=59)) == session
    assert signer.read(cookie, NOW + timedelta(minutes=60)) is None


def test_another_master_key_or_any_change_voids_the_cookie() -> None:
    _, cookie = _signer().issue("key-1", "t-a", NOW)
    assert _signer(b"o" * 32).read(cookie, NOW) is None
    body, mac = cookie.split(".")
    for forged in (body[:-1] + ("A" if body[-1] != "A" else "B") + "." + mac, body, "", "a.b.c"):
        assert _signer().read(forged, NOW) is None


def test_csrf_tokens_are_bound_to_their_session() -> None:
    signer = _signer()
    first, _ = signer.issue("key-1", "t-a", NOW)
    second, _ = signer.issue("key-1", "t-a", NOW)
    token = signer.csrf_token(first)
    assert SessionSigner.matches(token, signer.csrf_token(first))
    assert not SessionSigner.matches(token, signer.csrf_token(second))
    assert not SessionSigner.matches(token, None)
    assert not SessionSigner.matches(signer.login_token("n"), signer.login_token("m"))


def test_the_signing_key_is_not_the_master_key() -> None:
    assert derive_signing_key(b"k" * 32) != b"k" * 32
