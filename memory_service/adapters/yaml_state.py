"""The state's YAML for the front matter: safe_dump that quotes instead of folding lines.

A folded scalar (``>``) would be escaped by the injection core anyway; an unbounded width keeps
each value on its own line, so what the model reads is what the tenant wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml


def dump_state_yaml(state: Mapping[str, Any]) -> str:
    return yaml.safe_dump(
        dict(state),
        allow_unicode=True,
        sort_keys=True,
        default_flow_style=False,
        width=float("inf"),
    )
