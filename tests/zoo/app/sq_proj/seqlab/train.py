"""The training loop and the named cases (each a setting of the data, the model and the loop)."""

import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

from seqlab.data import SeqDataset, collate, corpus
from seqlab.models import AttnClassifier, RNNClassifier, Seq2Seq
from seqlab.vocab import BOS, EOS, PAD, Vocab

CASES = {
    # the eval split's truncation (16) reused as pad_packed_sequence's total_length, for DataParallel gathers
    "sq_total_length_short": {"model": "rnn", "total_length": 16},
    "sq_packed_output_index": {"model": "rnn", "last_from_packed": True},
    "sq_teacher_step_unbatched": {"model": "seq2seq"},
    "sq_mask_3d_heads": {"model": "attn", "causal": "per_sample"},
    "sq_is_causal_no_mask": {"model": "attn", "causal": "hint"},
    "sq_worker_augment_list": {"model": "rnn", "word_dropout": 0.1, "workers": 2},
}


def build(case: dict, vocab_size: int, cell: str) -> nn.Module:
    if case["model"] == "rnn":
        return RNNClassifier(
            vocab_size,
            cell,
            total_length=case.get("total_length"),
            last_from_packed=case.get("last_from_packed", False),
        )
    if case["model"] == "seq2seq":
        return Seq2Seq(vocab_size, cell)
    return AttnClassifier(vocab_size, causal=case["causal"])


def step_loss(model: nn.Module, case: dict, batch: dict) -> torch.Tensor:
    if case["model"] == "seq2seq":
        src = batch["ids"]
        tgt = pad_sequence(
            [torch.tensor([BOS, *row[:n].flip(0).tolist(), EOS]) for row, n in zip(src, batch["lengths"])],
            batch_first=True,
            padding_value=PAD,
        )
        logits = model(src, tgt)
        return nn.functional.cross_entropy(logits.flatten(0, 1), tgt[:, 1:].flatten(), ignore_index=PAD)
    if case["model"] == "attn":
        return nn.functional.cross_entropy(model(batch["ids"]), batch["labels"])
    return nn.functional.cross_entropy(model(batch["ids"], batch["lengths"]), batch["labels"])


def fit(name: str, cell: str, epochs: int = 2) -> None:
    case = CASES[name]
    torch.manual_seed(0)
    rows = corpus(96)
    vocab = Vocab([line for line, _ in rows])
    data = SeqDataset(rows, vocab, word_dropout=case.get("word_dropout", 0.0), dropout_from=40)
    loader = DataLoader(data, batch_size=8, collate_fn=collate, num_workers=case.get("workers", 0))
    model = build(case, len(vocab), cell)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"case {name}: {len(rows)} sentences, vocab {len(vocab)}, model {case['model']} ({cell})", flush=True)
    for epoch in range(epochs):
        total = 0.0
        for batch in loader:
            loss = step_loss(model, case, batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}", flush=True)
