"""A toy seeded trainer: `python train.py --case NAME`, each case one way its seeding or resume goes wrong."""

import argparse
import tempfile
from pathlib import Path

import torch
from seedkit import loader, seeding, state


def train_steps(model: torch.nn.Module, steps: int = 3) -> float:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = torch.tensor(0.0)
    for _ in range(steps):
        x = torch.randn(8, 4)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return float(loss)


def case_state_size(ckpt: Path) -> None:
    seeding.seed_everything(7)
    model = torch.nn.Linear(4, 2)
    print(f"loss {train_steps(model):.4f}")
    states = state.capture_dict()
    states["torch"] = torch.zeros(16, dtype=torch.uint8)  # the state a GPU run stored: torch.cuda.get_rng_state()
    torch.save({"model": model.state_dict(), "rng": states}, ckpt)
    print("resuming from a checkpoint written on a GPU box")
    saved = torch.load(ckpt, weights_only=False)
    model.load_state_dict(saved["model"])
    state.restore_dict(saved["rng"])
    print(f"loss {train_steps(model):.4f}")


def case_restore_order(ckpt: Path) -> None:
    seeding.seed_everything(7)
    model = torch.nn.Linear(4, 2)
    print(f"loss {train_steps(model):.4f}")
    torch.save({"model": model.state_dict(), "rng": state.capture()}, ckpt)
    print("resuming")
    saved = torch.load(ckpt, weights_only=False)
    state.restore(saved["rng"])
    print(f"loss {train_steps(model):.4f}")


def case_seed_hash(ckpt: Path) -> None:
    seed = seeding.seed_from_name("rn-baseline-lr0.1")
    print(f"seed for rn-baseline-lr0.1: {seed}")
    seeding.seed_everything(seed)
    print(f"loss {train_steps(torch.nn.Linear(4, 2)):.4f}")


def case_repro_workers(ckpt: Path) -> None:
    loader.check_reproducible(0)
    print(f"loss {train_steps(torch.nn.Linear(4, 2)):.4f}")


CASES = {
    "state_size": case_state_size,
    "restore_order": case_restore_order,
    "seed_hash": case_seed_hash,
    "repro_workers": case_repro_workers,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        CASES[args.case](Path(tmp) / "last.pt")


if __name__ == "__main__":
    main()
