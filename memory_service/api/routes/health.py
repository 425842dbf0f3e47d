"""Liveness and dependency status; no key needed, nothing about tenants disclosed."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from memory_service.api.deps import ContainerDep
from memory_service.api.schemas import HealthResponse

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=HealthResponse, responses={503: {"model": HealthResponse}})
def health(container: ContainerDep) -> JSONResponse:
    checks = container.check_dependencies()
    healthy = all(result in ("ok", "not_configured") for result in checks.values())
    body = HealthResponse(status="ok" if healthy else "degraded", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if healthy else 503)
