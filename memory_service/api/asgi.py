"""The ASGI entry point for servers that import an app factory (uvicorn, gunicorn)."""

from __future__ import annotations

import logging
import os

from fastapi import FastAPI

from memory_service.api.app import create_app
from memory_service.bootstrap import build_container, relay_outbox_at_start
from memory_service.config import Settings
from memory_service.warm import models_loaded_by

log = logging.getLogger("memory_service.api")


def create_default_app() -> FastAPI:
    container = build_container(Settings.from_env())
    # Embedded default: sessions a killed process left ended are consolidated now.
    relay_outbox_at_start(container)
    loaded_by = models_loaded_by()
    if loaded_by is not None and loaded_by != os.getpid():
        log.info(
            "server process %d started on the models loaded by process %d", os.getpid(), loaded_by
        )
    return create_app(container)
