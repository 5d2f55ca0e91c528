"""Natural language inference (premise/hypothesis pairs), added later by another author."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TaskArguments:
    num_labels: int = 3
    label_field: str = "label"
    pair_separator: str = "[SEP]"
