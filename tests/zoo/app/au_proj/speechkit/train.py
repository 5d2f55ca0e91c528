"""The loop: corpus, loader with 2 workers, CTC loss, Adam."""

import tempfile

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from speechkit.data import Clips, make_corpus, pad_collate
from speechkit.model import Recognizer


def fit(cfg) -> None:
    torch.manual_seed(cfg.seed)
    root = tempfile.mkdtemp(prefix="au_proj_")
    items = make_corpus(root, cfg.data)
    vocab = cfg.data.vocab
    loader = DataLoader(Clips(items, vocab, cfg.data), batch_size=cfg.batch_size, num_workers=2, collate_fn=pad_collate)
    model = Recognizer(cfg.data.features, cfg.model.hidden, len(vocab) + cfg.data.extra_classes)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.model.lr)
    print(f"{len(items)} clips, vocab {len(vocab)}, blank {cfg.data.blank}", flush=True)
    for epoch in range(cfg.epochs):
        for step, (wav, lengths, targets, target_lengths) in enumerate(loader):
            log_probs = model(wav)
            loss = F.ctc_loss(log_probs, targets, model.frames(lengths), target_lengths, blank=cfg.data.blank)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 4 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    print("done", flush=True)
