"""Request dependencies: the wired container, and the bearer key turned into a TenantScope.

They are ``async`` on purpose: FastAPI runs a plain ``def`` dependency in the thread pool,
one hop each (about 0.1 ms apiece, measured by ``benchmarks/http_floor.py``). A key this
process verified recently is answered from memory on the event loop; only a lookup that
must reach the database goes to a thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from memory_service.adapters.key_cache import CachedKeyStore
from memory_service.bootstrap import Container
from memory_service.core.errors import AuthenticationError
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope

MAX_KEY_LENGTH = 200

bearer = HTTPBearer(auto_error=False, description="An API key from `memory-service keys create`")


async def get_container(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


ContainerDep = Annotated[Container, Depends(get_container)]


async def authenticate(
    container: ContainerDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> TenantScope:
    """Every failure reads the same, so a caller cannot tell a revoked key from a made-up one."""
    if credentials is None or len(credentials.credentials) > MAX_KEY_LENGTH:
        raise AuthenticationError("a valid bearer API key is required")
    clear_key = credentials.credentials
    keys = container.keys
    key = keys.cached(clear_key) if isinstance(keys, CachedKeyStore) else None
    if key is None:
        key = await run_in_threadpool(keys.authenticate, clear_key)
    if key is None:
        raise AuthenticationError("a valid bearer API key is required")
    return TenantScope(tenant_id=key.tenant_id, role=key.role, actor=f"key:{key.id}")


async def authenticate_admin(scope: Annotated[TenantScope, Depends(authenticate)]) -> TenantScope:
    scope.require(Role.ADMIN)
    return scope


AgentScope = Annotated[TenantScope, Depends(authenticate)]
AdminScope = Annotated[TenantScope, Depends(authenticate_admin)]
