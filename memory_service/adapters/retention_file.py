"""Loads the retention policy from the file ``MEMORY_SERVICE_RETENTION_FILE`` names.

JSON or YAML (YAML is a superset of JSON, so one parser reads both). Without a file the
built-in defaults apply. A malformed file stops the service at start, never mid-request.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from memory_service.config import ConfigurationError
from memory_service.core.retention import (
    DEFAULT_POLICY,
    RetentionPolicy,
    RetentionPolicyError,
    parse_policy,
)


def load_retention_policy(path: Path | None) -> RetentionPolicy:
    if path is None:
        return DEFAULT_POLICY
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigurationError("the retention file cannot be read") from exc
    except yaml.YAMLError as exc:
        raise ConfigurationError("the retention file is not valid JSON or YAML") from exc
    try:
        return parse_policy(document)
    except RetentionPolicyError as exc:
        raise ConfigurationError(f"retention file: {exc}") from exc
