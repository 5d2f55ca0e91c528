"""Names that hold secrets are never written anywhere (env.json, matrix.yaml, result.json)."""

from __future__ import annotations

import re

_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
REDACTED = "<redacted>"


def is_secret(name: str) -> bool:
    return bool(_SECRET.search(str(name)))


def redact_mapping(mapping: dict) -> dict:
    return {k: (REDACTED if is_secret(k) else v) for k, v in mapping.items()}


def redact_argv(argv) -> list[str]:
    """key=value arguments whose key names a secret lose their value."""
    out = []
    for a in argv:
        key, eq, _ = str(a).partition("=")
        out.append(f"{key}={REDACTED}" if eq and is_secret(key.lstrip("+~-")) else str(a))
    return out
