"""The loop: gradient accumulation over `accum` micro-batches, then the hand-written optimizer's step."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from f_pkg.data import TextDataset, corpus
from f_pkg.model import Encoder
from f_pkg.optim import MomentumSGD
from f_pkg.tokenizer import Tokenizer


def losses(cfg: dict, model: Encoder, ids, labels, tags) -> torch.Tensor:
    logits, hidden = model(ids)
    if cfg["loss"] == "bce":
        loss = nn.BCELoss()(logits, tags)
    elif cfg["loss"] == "ctc":
        log_probs = model.frames(hidden).transpose(0, 1)
        lengths = (ids != 0).sum(1)
        targets = ids[:, 1:5]
        loss = F.ctc_loss(log_probs, targets, lengths, torch.full_like(lengths, 4), blank=0)
    else:
        loss = F.cross_entropy(logits, labels)
    if cfg["aux_weight"]:
        loss = loss + cfg["aux_weight"] * F.cross_entropy(model.aux_head(hidden).flatten(0, 1), ids.flatten())
    return loss


def fit(cfg: dict) -> None:
    torch.manual_seed(0)
    rows = corpus(96)
    lines = [text for text, _ in rows]
    tok = Tokenizer(lines[: cfg["vocab_lines"]] if cfg["vocab_lines"] else lines)
    print(f"vocab {len(tok)} words", flush=True)
    loader = DataLoader(
        TextDataset(rows, tok, cfg["max_len"]), batch_size=cfg["batch_size"], num_workers=cfg["num_workers"]
    )
    model = Encoder(len(tok), 4, cfg["block_size"], ctc=cfg["loss"] == "ctc")
    opt = MomentumSGD(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        for i, (ids, labels, tags) in enumerate(loader):
            loss = losses(cfg, model, ids, labels, tags) / cfg["accum"]
            loss.backward()
            if (i + 1) % cfg["accum"] == 0:
                opt.step()
                opt.zero_grad()
            if i % 4 == 0:
                print(f"epoch {epoch} batch {i} loss {loss.item():.4f}", flush=True)
    print("done", flush=True)
