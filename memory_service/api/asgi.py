"""The ASGI entry point for servers that import an app factory (uvicorn, gunicorn)."""

from __future__ import annotations

from fastapi import FastAPI

from memory_service.api.app import create_app
from memory_service.bootstrap import build_container
from memory_service.config import Settings


def create_default_app() -> FastAPI:
    return create_app(build_container(Settings.from_env()))
