"""A sweep launcher checks every trial's settings before starting any (build the optimizer of each), collects
what fails and raises its own ExceptionGroup; two trials' learning rates came out negative from a log-uniform
sampler given `low=-3` meant as an exponent."""

import logging
import sys

import torch

log = logging.getLogger("sweep")


def trials() -> list[dict]:
    return [{"name": f"trial{i}", "lr": lr} for i, lr in enumerate([1e-2, -1e-3, 3e-3, -3.0])]


def check(trial: dict) -> None:
    model = torch.nn.Linear(8, 2)
    torch.optim.SGD(model.parameters(), lr=trial["lr"], momentum=0.9)


def main() -> None:
    logging.basicConfig(stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s: %(message)s", level=logging.INFO)
    errors = []
    for trial in trials():
        try:
            check(trial)
            log.info("%s ok", trial["name"])
        except ValueError as e:
            e.add_note(f"in sweep trial {trial['name']}")
            errors.append(e)
    if errors:
        raise ExceptionGroup(f"{len(errors)} of {len(trials())} sweep trials have bad settings", errors)  # noqa: F821
    print("starting the sweep", flush=True)
