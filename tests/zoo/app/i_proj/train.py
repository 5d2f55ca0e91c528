"""python train.py --preset NAME [--epochs N] [key=value ...]: trains a small token+image classifier whose
preprocessing is the C helper in i_ops/. Presets are named sets of options; key=value arguments after the flags
override single options (`preset=NAME` included)."""

import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from data import Samples
from i_ops import native
from torch.utils.data import DataLoader

BASE = {
    "samples": 32,
    "seq_len": 48,
    "max_len": 64,
    "batch_size": 8,
    "num_workers": 0,
    "layout": "copy",
    "jitter": False,
    "features": "",
    "freq_stats": False,
    "lr": 0.05,
}
PRESETS = {
    "base": {},
    # long documents: 600 tokens per row, the row still packed into the short model's 384 slots
    "i_heap_overrun": {"seq_len": 600, "max_len": 384},
    # print the token-frequency table's mean before training
    "i_restype_truncated": {"freq_stats": True},
    # images handed to the helper as the transposed view, in 2 DataLoader workers
    "i_noncontig_worker": {"layout": "view", "num_workers": 2},
    # the fast augmentation path (brightness jitter from fast.c)
    "i_undefined_symbol": {"jitter": True},
    # features from the legacy extractor, written big-endian
    "i_features_big_endian": {"features": ">"},
}


class Net(nn.Module):
    def __init__(self, vocab: int = 1000, dim: int = 32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.conv = nn.Conv2d(3, dim, 3, padding=1)
        self.head = nn.Linear(2 * dim + 8, 4)

    def forward(self, tokens, img, feats):
        t = self.emb(tokens)
        v = self.conv(img).mean((2, 3))
        return self.head(torch.cat([t, v, feats], 1))


def options() -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", default="base", choices=sorted(PRESETS))
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("overrides", nargs="*", metavar="key=value")
    args = parser.parse_args()
    extra = dict(a.split("=", 1) for a in args.overrides)
    cfg = dict(BASE, **PRESETS[extra.pop("preset", args.preset)], epochs=args.epochs)
    for key, value in extra.items():
        cfg[key] = type(cfg[key])(value) if key in cfg and not isinstance(cfg[key], bool) else value == "true"
    return cfg


def main() -> None:
    cfg = options()
    torch.manual_seed(0)
    if cfg["freq_stats"]:
        print(f"token frequency mean {native.table_mean(1 << 20):.1f}", flush=True)
    data = Samples(cfg)
    print(f"{len(data)} samples, rows of {cfg['max_len']} tokens", flush=True)
    loader = DataLoader(data, batch_size=cfg["batch_size"], num_workers=cfg["num_workers"], shuffle=True)
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        for tokens, img, feats, label in loader:
            loss = F.cross_entropy(model(tokens, img, feats), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}", flush=True)


if __name__ == "__main__":
    main()
