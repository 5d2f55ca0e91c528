"""Checkpoints: serialised in memory first (one write, so a half-written file is never left behind)."""

import io

import torch


def save(state: dict, path: str) -> None:
    buf = io.BytesIO()
    torch.save(state, buf)
    with open(path, "wb") as f:
        f.write(buf.getbuffer())
