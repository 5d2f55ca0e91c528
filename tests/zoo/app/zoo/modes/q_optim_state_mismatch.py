"""Resuming training after the model gained a layer: the optimizer is built for the new model (3 Linear layers,
6 tensors) and loads the state saved for the old one (2 layers, 4 tensors); torch refuses the parameter group."""

import io

import torch


def build(layers: int) -> torch.nn.Sequential:
    return torch.nn.Sequential(*[torch.nn.Linear(8, 8) for _ in range(layers)])


def save_old_checkpoint() -> io.BytesIO:
    old = build(2)
    opt = torch.optim.Adam(old.parameters())
    old(torch.randn(4, 8)).sum().backward()
    opt.step()
    buf = io.BytesIO()
    torch.save({"model": old.state_dict(), "optim": opt.state_dict()}, buf)
    buf.seek(0)
    return buf


def main() -> None:
    ckpt = torch.load(save_old_checkpoint())
    model = build(3)
    model.load_state_dict(ckpt["model"], strict=False)
    opt = torch.optim.Adam(model.parameters())
    opt.load_state_dict(ckpt["optim"])
    print(len(opt.param_groups))
