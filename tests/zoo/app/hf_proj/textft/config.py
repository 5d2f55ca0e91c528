"""Training arguments from a JSON file and the command line, one argparse option per dataclass field
(the way HfArgumentParser builds its parser)."""

import argparse
import dataclasses
import importlib
import json
from dataclasses import dataclass


@dataclass
class TrainingArguments:
    task: str = "classify"
    train_files: str = "data/train-*.jsonl"
    eval_files: str = "data/eval-*.jsonl"
    vocab_file: str = "data/vocab.txt"
    max_length: int = 24
    batch_size: int = 8
    grad_accum: int = 2
    lr: float = 3e-3
    epochs: int = 2
    num_workers: int = 0
    eval_steps: int = 4
    save_steps: int = 4
    save_total_limit: int = 2
    attn_implementation: str = "eager"
    metric_for_best_model: str = ""
    early_stopping_patience: int = 2
    log_samples: bool = False
    push_checkpoints: bool = False


def build_parser(classes: list) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(add_help=False)
    for cls in classes:
        for field in dataclasses.fields(cls):
            kind = field.type
            if kind is bool:
                kind = lambda s: s.lower() in ("1", "true", "yes")  # noqa: E731
            parser.add_argument(f"--{field.name}", type=kind, default=field.default)
    return parser


def load_arguments(config_file: str, rest: list[str]):
    with open(config_file) as f:
        values = json.load(f)
    task = importlib.import_module(f"textft.tasks.{values.get('task', 'classify')}")
    parser = build_parser([TrainingArguments, task.TaskArguments])
    argv = [f"--{k}={v}" for k, v in values.items()] + rest
    ns = parser.parse_args(argv)
    train = TrainingArguments(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(TrainingArguments)})
    task_args = task.TaskArguments(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(task.TaskArguments)})
    return train, task_args
