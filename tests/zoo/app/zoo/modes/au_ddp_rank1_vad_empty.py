"""torchrun, 2 gloo ranks: utterances trimmed by an energy VAD, bucketed by length and the buckets dealt to the
ranks (rank 1 gets the short ones); one recording is all silence, trimmed to 0 frames, and lands in rank 1's
second batch. The encoder packs each batch with `pack_padded_sequence`."""

import numpy as np
import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.nn.utils.rnn import pack_padded_sequence


def vad_trim(feats: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Keep the frames from the first to the last whose energy is over the threshold."""
    voiced = np.flatnonzero(np.abs(feats).mean(axis=1) > threshold)
    return feats[voiced[0] : voiced[-1] + 1] if len(voiced) else feats[:0]


def utterances() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    utts = []
    for i in range(16):
        n = 40 + 5 * i
        feats = rng.standard_normal((n, 40)).astype(np.float32)
        if i == 6:
            feats *= 0.01  # a silent recording
        utts.append(vad_trim(feats))
    return utts


def rank_batches(rank: int, world_size: int, batch_size: int = 4) -> list[list[np.ndarray]]:
    """Sort by length, cut into batches, deal the batches to the ranks in contiguous halves."""
    utts = sorted(utterances(), key=len)
    batches = [utts[i : i + batch_size] for i in range(0, len(utts), batch_size)]
    per_rank = len(batches) // world_size
    shard = batches[per_rank * (world_size - 1 - rank) : per_rank * (world_size - rank)]
    return shard[::-1] if rank == 1 else shard


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(40, 32, batch_first=True)
        self.out = nn.Linear(32, 30)

    def forward(self, feats: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        packed = pack_padded_sequence(feats, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.rnn(packed)
        return self.out(h[-1]).log_softmax(-1)


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    model = DDP(Encoder())
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step, batch in enumerate(rank_batches(rank, world_size)):
        lengths = torch.tensor([len(u) for u in batch])
        feats = torch.zeros(len(batch), int(lengths.max()), 40)
        for i, u in enumerate(batch):
            feats[i, : len(u)] = torch.from_numpy(u)
        loss = model(feats, lengths).mean().neg()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
