"""Environment variables whose names hold secrets are never written anywhere (env.json, matrix.yaml, logs we write)."""

from __future__ import annotations

import re

_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
REDACTED = "<redacted>"


def is_secret(name: str) -> bool:
    return bool(_SECRET.search(str(name)))


def redact_mapping(mapping: dict) -> dict:
    return {k: (REDACTED if is_secret(k) else v) for k, v in mapping.items()}
