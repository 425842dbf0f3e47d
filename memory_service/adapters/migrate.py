"""Run the Alembic migrations programmatically, from a checkout or an installed wheel."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations


def alembic_config(url: str, keystore_url: str | None = None) -> Config:
    """A config pointing at the installed ``migrations`` package; no ini file needed."""
    config = Config()
    # __path__ rather than __file__: an editable install made before the package had an
    # __init__.py imports it as a namespace package, which has no __file__.
    config.set_main_option("script_location", str(Path(next(iter(migrations.__path__)))))
    # Passed as an attribute, not an ini option, so a '%' in a password needs no escaping.
    config.attributes["database_url"] = url
    # Where revision 0006 moves the data keys (default: KEYSTORE_URL, or keys.db beside
    # a SQLite database).
    config.attributes["keystore_url"] = keystore_url
    return config


def upgrade(url: str, revision: str = "head", *, keystore_url: str | None = None) -> None:
    command.upgrade(alembic_config(url, keystore_url), revision)


def downgrade(url: str, revision: str, *, keystore_url: str | None = None) -> None:
    command.downgrade(alembic_config(url, keystore_url), revision)
