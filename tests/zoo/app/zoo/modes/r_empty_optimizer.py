"""Fine-tuning with every parameter frozen: the optimizer is given no parameter that requires grad."""

import torch


def trainable(model: torch.nn.Module):
    return [p for p in model.parameters() if p.requires_grad]


def main() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Linear(8, 2))
    for p in model.parameters():
        p.requires_grad = False  # meant to freeze the backbone only
    opt = torch.optim.AdamW(trainable(model), lr=1e-3)
    print(opt)
