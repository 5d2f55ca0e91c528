"""torchrun, 2 gloo ranks: a GRU encoder-decoder trained with teacher forcing under DDP; the decoder's loop runs
over the source's length (written for the copy task, where source and target are as long). Rank 1's shard holds
the summarisation pairs, whose targets are shorter, so its loop indexes past the target; rank 0 waits in DDP's
gradient all-reduce."""

from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Seq2Seq(nn.Module):
    def __init__(self, vocab: int = 40, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.dec = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        _, h = self.enc(self.embed(src))
        logits = []
        for t in range(src.size(1)):
            out, h = self.dec(self.embed(tgt[:, t]).unsqueeze(1), h)
            logits.append(self.out(out))
        return torch.cat(logits, 1)


def shard(rank: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    g = torch.Generator().manual_seed(rank)
    pairs = []
    for _ in range(3):
        src = torch.randint(1, 40, (4, 12), generator=g)
        tgt = src.clone() if rank == 0 else torch.randint(1, 40, (4, 6), generator=g)
        pairs.append((src, tgt))
    return pairs


def run(rank: int, world_size: int) -> None:
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=timedelta(seconds=60))
    torch.manual_seed(0)
    model = DDP(Seq2Seq())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step, (src, tgt) in enumerate(shard(rank)):
        logits = model(src, tgt)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), src.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"rank {rank} step {step} loss {loss.item():.3f}", flush=True)
    dist.destroy_process_group()
