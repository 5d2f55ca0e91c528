"""The study's report: the trials' records read back, the best one printed."""

from __future__ import annotations

import json


def load(path: str) -> list[dict]:
    with open(path) as f:
        records = json.load(f)
    return records if isinstance(records, list) else [records]


def best(results: list[dict]) -> dict:
    return min(results, key=lambda r: r["loss"])


def show(study: str, results: list[dict]) -> None:
    top = best(results)
    print(f"study {study}: {len(results)} trials, best #{top['number']} loss {top['loss']:.4f} {top['config']}")
