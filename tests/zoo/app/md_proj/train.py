"""modkit's trainer: `python train.py --case NAME`."""

import argparse
import os
import tempfile

import torch
from modkit.build import build, count_params
from torch import nn


def train_mlp(case: str) -> None:
    torch.manual_seed(0)
    model = build(case)
    print(f"{case}: {count_params(model)} parameters")
    trunk = model[0]
    before = [blk.fc.weight.detach().clone() for blk in trunk.blocks]
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(64, 16), torch.randint(0, 4, (64,))
    for _ in range(20):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f} after 20 steps")
    for i, blk in enumerate(trunk.blocks):
        assert not torch.equal(blk.fc.weight, before[i]), f"block {i} did not train: its weights never changed"


def train_tied() -> None:
    torch.manual_seed(0)
    model = build("tied")
    ids = torch.randint(0, 50, (8, 12))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    loss = nn.functional.cross_entropy(model(ids).flatten(0, 1), ids.flatten())
    loss.backward()
    opt.step()
    path = os.path.join(tempfile.mkdtemp(), "lm.pt")
    torch.save(model.state_dict(), path)
    fresh = build("tied")
    fresh.load_state_dict(torch.load(path), assign=True)  # no copy: take the loaded tensors as they are
    print(f"reloaded {count_params(fresh)} parameters")
    assert fresh.head.weight is fresh.emb.weight, "head and embedding are no longer tied after loading"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    case = args.case.removeprefix("md_")
    if case == "tied_assign_load":
        train_tied()
    else:
        train_mlp(
            {
                "list_blocks_untrained": "list_blocks",
                "lazy_head_count": "lazy_head",
                "block_scale_dot_name": "block_scales",
            }.get(case, case)
        )


if __name__ == "__main__":
    main()
