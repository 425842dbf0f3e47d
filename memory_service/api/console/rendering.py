"""Templates with autoescaping on, and the headers every console page carries.

Memory text is user content: Jinja2 escapes every value put in a page, and the content
security policy allows no script at all (the console needs none), so even a value that
escaped the escaping could not run.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    # Pages show personal data: no shared or back-button cache may keep them.
    "Cache-Control": "no-store",
}

_environment = Environment(
    loader=PackageLoader("memory_service.api.console", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _when(value: datetime | None) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


_environment.filters["when"] = _when


def render(template: str, *, status_code: int = 200, **values: Any) -> HTMLResponse:
    html = _environment.get_template(template).render(**values)
    return HTMLResponse(html, status_code=status_code, headers=SECURITY_HEADERS)
