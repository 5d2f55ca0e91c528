"""A training script that parses its own options with argparse, as most scripts do: `--lr 0.1`, `--lr=0.1`,
`--batch-size 32`. A step of lr 0.9 or more diverges (the planted failure), raised in `step`."""

import argparse


def step(lr: float, batch_size: int) -> float:
    loss = 1.0
    for _ in range(3):
        loss = loss * (1 + lr) - lr * 0.5
    if lr >= 0.9:
        raise FloatingPointError(f"loss diverged to {loss:.3f} with lr={lr} and batch size {batch_size}")
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--tag", default="")
    args = parser.parse_args()  # an unknown argument (lr=0.1) is exit status 2, as argparse does
    for epoch in range(args.epochs):
        print(
            f"epoch {epoch} lr {args.lr} batch {args.batch_size} tag {args.tag!r} loss {step(args.lr, args.batch_size):.3f}"
        )


if __name__ == "__main__":
    main()
