"""The ASGI entry point for servers that import an app factory (uvicorn, gunicorn)."""

from __future__ import annotations

from fastapi import FastAPI

from memory_service.api.app import create_app
from memory_service.bootstrap import build_container, relay_outbox_at_start
from memory_service.config import Settings


def create_default_app() -> FastAPI:
    container = build_container(Settings.from_env())
    # Embedded default: sessions a killed process left ended are consolidated now.
    relay_outbox_at_start(container)
    return create_app(container)
