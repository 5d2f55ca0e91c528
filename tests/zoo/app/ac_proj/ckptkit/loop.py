"""The training loop and its cases (`python train.py --case NAME`)."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

from ckptkit.blocks import TokenDrop, stack
from ckptkit.functions import GradScale
from ckptkit.hooks import offload

DIM, TOKENS = 32, 16


def batches(n: int, tokens: bool = False):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        shape = (8, TOKENS, DIM) if tokens else (8, DIM)
        yield torch.randn(*shape, generator=g), torch.randn(8, 1, generator=g)


def check_grads(model: nn.Module) -> None:
    missing = [name for name, p in model.named_parameters() if p.requires_grad and p.grad is None]
    if missing:
        raise RuntimeError(f"no gradient for {len(missing)} parameters, first {missing[0]}")


def frozen_stem(steps: int = 3) -> None:
    """A frozen stem (pretrained), the trunk checkpointed (reentrant), a trained head."""
    stem, trunk, head = nn.Linear(DIM, DIM).requires_grad_(False), stack(DIM, 3), nn.Linear(DIM, 1)
    model = nn.ModuleDict({"stem": stem, "trunk": trunk, "head": head})
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01)
    for step, (x, y) in enumerate(batches(steps)):
        h = checkpoint(trunk, stem(x), use_reentrant=True)
        loss = nn.functional.mse_loss(head(h), y)
        opt.zero_grad()
        loss.backward()
        check_grads(model)
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def token_drop(steps: int = 3) -> None:
    """Token dropping under non-reentrant checkpointing; the schedule lowers `keep` after each forward."""
    block, head = TokenDrop(DIM, keep=TOKENS), nn.Linear(DIM, 1)
    opt = torch.optim.SGD([*block.parameters(), *head.parameters()], lr=0.01)
    for step, (x, y) in enumerate(batches(steps, tokens=True)):
        h = checkpoint(block, x, use_reentrant=False)
        loss = nn.functional.mse_loss(head(h), y)
        block.keep = max(4, block.keep - 4)  # the schedule, stepped with the forward
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f} keep {block.keep}", flush=True)


def sequential_segments(steps: int = 3, segments: int = 8) -> None:
    """checkpoint_sequential over the trunk, its segment count taken from a config written for a deeper model."""
    trunk, head = stack(DIM, 4), nn.Linear(DIM, 1)
    opt = torch.optim.SGD([*trunk.parameters(), *head.parameters()], lr=0.01)
    for step, (x, y) in enumerate(batches(steps)):
        h = checkpoint_sequential(trunk, segments, x.requires_grad_(), use_reentrant=False)
        loss = nn.functional.mse_loss(head(h), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def legacy_function(steps: int = 3) -> None:
    """A gradient-scaling layer between trunk and head, called as an instance (the old autograd style)."""
    trunk, head = stack(DIM, 2), nn.Linear(DIM, 1)
    opt = torch.optim.SGD([*trunk.parameters(), *head.parameters()], lr=0.01)
    for step, (x, y) in enumerate(batches(steps)):
        h = GradScale(0.5)(trunk(x))
        loss = nn.functional.mse_loss(head(h), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def offload_bf16(steps: int = 3) -> None:
    """Saved activations kept in bfloat16 (ckptkit.hooks) during the forward."""
    trunk, head = stack(DIM, 2), nn.Linear(DIM, 1)
    opt = torch.optim.SGD([*trunk.parameters(), *head.parameters()], lr=0.01)
    for step, (x, y) in enumerate(batches(steps)):
        with offload():
            loss = nn.functional.mse_loss(head(trunk(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


CASES = {
    "ac_reentrant_frozen_stem": frozen_stem,
    "ac_token_drop_recompute": token_drop,
    "ac_sequential_segments": sequential_segments,
    "ac_legacy_function_instance": legacy_function,
    "ac_offload_bf16_unpack": offload_bf16,
}


def run(case: str) -> None:
    torch.manual_seed(0)
    print(f"case {case}", flush=True)
    CASES[case]()
