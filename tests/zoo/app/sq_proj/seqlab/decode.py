"""Greedy decoding with an RNN encoder-decoder."""

import torch

from seqlab.vocab import BOS, EOS


@torch.no_grad()
def greedy(model, src: torch.Tensor, max_len: int = 24) -> list[list[int]]:
    _, state = model.enc(model.embed(src))
    tok = torch.full((src.size(0), 1), BOS)
    out = []
    for _ in range(max_len):
        step, state = model.dec(model.embed(tok), state)
        tok = model.out(step).argmax(-1)
        out.append(tok)
    seqs = torch.cat(out, 1).tolist()
    return [s[: s.index(EOS)] if EOS in s else s for s in seqs]
