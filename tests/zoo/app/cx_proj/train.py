"""cx_proj's trainer: `python train.py op=NAME [key=value ...]` (arguments parsed here, no Hydra).

A small tagger over synthetic token sequences whose embedding lookup, scaling and pooling go through the
project's own C++ ops (cx_ops/csrc/ops.cpp, built once by torch.utils.cpp_extension.load into
TORCH_EXTENSIONS_DIR) and custom autograd Functions (cx_ops/functions.py). `op` picks the step that is exercised.
"""

import sys
import zlib

import torch
from cx_ops.build import ops
from cx_ops.functions import FusedScale, RowScale, Temper
from torch.utils.data import DataLoader, Dataset

DEFAULTS = {"op": "gather", "steps": "3", "batch": "8", "dim": "16", "vocab": "64", "seed": "0"}


def parse(argv: list[str]) -> dict:
    cfg = dict(DEFAULTS)
    for arg in argv:
        key, _, value = arg.partition("=")
        if key not in cfg:
            raise SystemExit(f"unknown key {key!r}; known: {sorted(cfg)}")
        cfg[key] = value
    return cfg


def token_ids(words: list[str], vocab: int) -> torch.Tensor:
    # known words by their index; an unknown word by its crc32, meant to be folded into the table (% vocab)
    known = {w: i for i, w in enumerate(["the", "a", "cat", "dog", "sat", "ran", "on", "mat"])}
    return torch.tensor([known[w] if w in known else zlib.crc32(w.encode()) for w in words])


class Clips(Dataset):
    """Audio clips; each sample's checksum goes through the C++ op. Clip 6 came out empty from the trimmer."""

    def __init__(self):
        self.lengths = [40, 32, 48, 40, 36, 44, 0, 40]

    def __len__(self) -> int:
        return len(self.lengths)

    def __getitem__(self, i: int):
        clip = torch.linspace(0, 1, self.lengths[i])
        return torch.tensor([ops().clip_checksum(clip)])


def step_gather(cfg: dict) -> None:
    table = torch.randn(int(cfg["vocab"]), int(cfg["dim"]))
    for step, sentence in enumerate(["the cat sat on the mat", "a dog ran on the mat", "the cat ate a fig"]):
        ids = token_ids(sentence.split(), int(cfg["vocab"]))
        emb = ops().gather_rows(table, ids)
        print(f"step {step}: {tuple(emb.shape)} mean {emb.mean().item():.4f}", flush=True)


def step_pack(cfg: dict) -> None:
    seqs = [[1, 5, 7, 2, 9, 4, 4, 8], [3, 3, 6, 1, 2, 7, 5, 5], [2, 8, 1, 4, 4]]
    packed = ops().pack_parallel(seqs, 8)
    print(f"packed {tuple(packed.shape)}", flush=True)


def step_loader(cfg: dict) -> None:
    loader = DataLoader(Clips(), batch_size=2, num_workers=2)
    for step, batch in enumerate(loader):
        print(f"batch {step}: {batch.flatten().tolist()}", flush=True)


def step_segments(cfg: dict) -> None:
    x = torch.randn(12, int(cfg["dim"]))
    lengths = torch.tensor([3, 4, 4])  # the last sentence's final token dropped by the tokenizer
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
    pooled = ops().segment_sum(x, offsets)
    print(f"pooled {tuple(pooled.shape)}", flush=True)


def step_scale(cfg: dict, transpose: bool = False, double: bool = False) -> None:
    torch.manual_seed(int(cfg["seed"]))
    model = torch.nn.Linear(int(cfg["dim"]), int(cfg["dim"]))
    if double:
        model = model.double()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(int(cfg["steps"])):
        x = torch.randn(int(cfg["batch"]), int(cfg["dim"]), dtype=torch.float64 if double else torch.float32)
        h = model(x)
        if transpose:
            h = h.t()  # features first for the next op
        loss = FusedScale.apply(h, 0.5).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def step_rowscale(cfg: dict) -> None:
    torch.manual_seed(int(cfg["seed"]))
    model = torch.nn.Linear(int(cfg["dim"]), int(cfg["dim"]))
    w = torch.nn.Parameter(torch.ones(int(cfg["dim"])))
    x = torch.randn(int(cfg["batch"]), int(cfg["dim"]))
    loss = RowScale.apply(model(x), w).pow(2).mean()
    print(f"loss {loss.item():.4f}", flush=True)
    loss.backward()


def step_temper(cfg: dict) -> None:
    torch.manual_seed(int(cfg["seed"]))
    model = torch.nn.Linear(int(cfg["dim"]), 4)
    x = torch.randn(int(cfg["batch"]), int(cfg["dim"]))
    probs = Temper.apply(model(x), 2.0)
    print(f"probs {tuple(probs.shape)}", flush=True)


STEPS = {
    "cx_ext_gather_segv": step_gather,
    "cx_ext_thread_throw": step_pack,
    "cx_worker_ext_noexcept": step_loader,
    "cx_ext_internal_assert": step_segments,
    "cx_ext_noncontig": lambda cfg: step_scale(cfg, transpose=True),
    "cx_ext_double": lambda cfg: step_scale(cfg, double=True),
    "cx_fn_grad_shape": step_rowscale,
    "cx_fn_save_nontensor": step_temper,
}


def main() -> None:
    cfg = parse(sys.argv[1:])
    print(f"op {cfg['op']}", flush=True)
    STEPS[cfg["op"]](cfg)


if __name__ == "__main__":
    main()
