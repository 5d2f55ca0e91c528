"""Sentence classification: the task's own arguments."""

from dataclasses import dataclass


@dataclass
class TaskArguments:
    num_labels: int = 3
    label_field: str = "label"
