"""Turning the overrides (strings) into the settings' types."""

from confkit2.fields import Optim


def parse_overrides(pairs: dict) -> dict:
    out = dict(pairs)
    if "optim" in out:
        out["optim"] = Optim(out["optim"])
    if "lr" in out:
        out["lr"] = float(out["lr"])
    return out
