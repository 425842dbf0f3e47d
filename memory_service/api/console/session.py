"""The console's signed session cookie and its CSRF tokens.

The cookie names the admin key by id (a reference, never the key itself), its tenant, a
random nonce and an absolute expiry, signed with HMAC-SHA256 under a key derived from the
master key, so every server process accepts the same cookies and a master-key rotation
signs everyone out. Each request re-checks that the key is still active, so revoking the
key ends its console sessions at once. CSRF tokens are HMACs of the session nonce (or, on
the sign-in form, of a nonce in a short-lived pre-session cookie): a page on another
origin can neither read nor compute them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

SESSION_COOKIE = "msc_session"
LOGIN_COOKIE = "msc_login"
COOKIE_PATH = "/admin"
LOGIN_NONCE_SECONDS = 15 * 60
_DERIVATION_LABEL = b"memory-service/console-session/v1"
_MAX_COOKIE_LENGTH = 1024


def derive_signing_key(master_key: bytes) -> bytes:
    """A key of its own for the console, so a cookie's MAC never reuses the master key."""
    return hmac.new(master_key, _DERIVATION_LABEL, hashlib.sha256).digest()


@dataclass(frozen=True)
class ConsoleSession:
    key_id: str
    tenant_id: str
    nonce: str
    expires_at: int  # Unix seconds


class SessionSigner:
    def __init__(self, signing_key: bytes, lifetime: timedelta) -> None:
        self._key = signing_key
        self.lifetime = lifetime

    def issue(self, key_id: str, tenant_id: str, now: datetime) -> tuple[ConsoleSession, str]:
        session = ConsoleSession(
            key_id=key_id,
            tenant_id=tenant_id,
            nonce=secrets.token_urlsafe(16),
            expires_at=int((now + self.lifetime).timestamp()),
        )
        payload = {
            "k": session.key_id,
            "t": session.tenant_id,
            "n": session.nonce,
            "e": session.expires_at,
        }
        return session, self._seal(json.dumps(payload, separators=(",", ":")).encode())

    def read(self, cookie: str | None, now: datetime) -> ConsoleSession | None:
        """The session the cookie carries, or None if it is absent, forged or expired."""
        payload = self._open(cookie)
        if payload is None:
            return None
        try:
            fields = json.loads(payload)
            session = ConsoleSession(
                key_id=str(fields["k"]),
                tenant_id=str(fields["t"]),
                nonce=str(fields["n"]),
                expires_at=int(fields["e"]),
            )
        except (ValueError, KeyError, TypeError):
            return None
        if session.expires_at <= now.timestamp():
            return None
        return session

    def csrf_token(self, session: ConsoleSession) -> str:
        return self._mac(b"csrf|" + session.nonce.encode())

    def login_token(self, login_nonce: str) -> str:
        return self._mac(b"login|" + login_nonce.encode())

    @staticmethod
    def matches(expected: str, presented: object) -> bool:
        return isinstance(presented, str) and hmac.compare_digest(expected, presented)

    def _mac(self, message: bytes) -> str:
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def _seal(self, payload: bytes) -> str:
        body = base64.urlsafe_b64encode(payload).rstrip(b"=").decode()
        return f"{body}.{self._mac(body.encode())}"

    def _open(self, cookie: str | None) -> bytes | None:
        if not cookie or len(cookie) > _MAX_COOKIE_LENGTH or cookie.count(".") != 1:
            return None
        body, mac = cookie.split(".")
        if not hmac.compare_digest(self._mac(body.encode()), mac):
            return None
        try:
            return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            return None
