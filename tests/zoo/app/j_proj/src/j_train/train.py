"""The training loop: epochs of (optionally mixed) batches under bf16 autocast, evaluation, checkpoints that a
requeued job resumes from, and a history table written at the end."""

import functools
import json
import os

import pandas as pd
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from j_train.data import Sequences, pad_collate
from j_train.model import Classifier


def autocast(args):
    return torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.precision == "bf16")


def make_loaders(args) -> tuple[DataLoader, DataLoader]:
    train = Sequences(args.train_size, args.max_len, args.vocab, args.classes, seed=0, truncate_to=args.max_len)
    val = Sequences(args.val_size, args.eval_seq_len, args.vocab, args.classes, seed=1)
    collate = functools.partial(pad_collate, max_len=args.max_len)
    train_loader = DataLoader(train, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(val, batch_size=args.batch_size, num_workers=args.eval_workers, collate_fn=collate)
    return train_loader, val_loader


def train_epoch(model, loader, opt, args) -> float:
    model.train()
    total, batches = 0.0, 0
    for batch in loader:
        tokens, labels = batch["tokens"], batch["label"]
        with autocast(args):
            h = model.embed(tokens)
            if args.mixup > 0:
                lam = float(torch.distributions.Beta(args.mixup, args.mixup).sample())
                perm = torch.randperm(args.batch_size)
                h = lam * h + (1 - lam) * h[perm]
                logits = model.classify(h)
                loss = lam * F.cross_entropy(logits, labels) + (1 - lam) * F.cross_entropy(logits, labels[perm])
            else:
                loss = F.cross_entropy(model.classify(h), labels)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        opt.step()
        total, batches = total + float(loss), batches + 1
    return total / batches


@torch.no_grad()
def evaluate(model, loader, args) -> float:
    model.eval()
    n = len(loader.dataset)
    logits_all = torch.zeros(n, args.classes)
    labels_all = torch.zeros(n, dtype=torch.long)
    for batch in loader:
        with autocast(args):
            logits = model(batch["tokens"])
        logits_all[batch["index"]] = logits
        labels_all[batch["index"]] = batch["label"]
    return float((logits_all.argmax(1) == labels_all).float().mean())


def save(model, opt, sched, epoch: int, out: str) -> str:
    path = os.path.join(out, "last.pt")
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict()}, path)
    with open(os.path.join(out, "trainer_state.json"), "w") as f:
        json.dump({"epoch": epoch, "rng": torch.get_rng_state().tolist()}, f)
    return path


def fit(args, stop_after: int | None = None) -> str | None:
    torch.manual_seed(args.seed)
    train_loader, val_loader = make_loaders(args)
    model = Classifier(args.vocab, args.dim, args.classes)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    start_epoch = 0
    if args.resume:
        ckpt = torch.load(args.resume)
        with open(os.path.join(os.path.dirname(args.resume), "trainer_state.json")) as f:
            state = json.load(f)
        model.load_state_dict(ckpt["model"])
        start_epoch = state["epoch"] + 1
        if args.sched_resume == "last_epoch":
            # continue the schedule where the preempted job left it
            sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5, last_epoch=start_epoch - 1)
            opt.load_state_dict(ckpt["optimizer"])
        else:
            opt.load_state_dict(ckpt["optimizer"])
            sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
            sched.load_state_dict(ckpt["scheduler"])
        if args.restore_rng == "json":
            torch.set_rng_state(torch.tensor(state["rng"]))
        print(f"resumed from {args.resume} at epoch {start_epoch}", flush=True)
    else:
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)

    history: dict[str, list] = {"epoch": [], "train_loss": [], "val_acc": []}
    for epoch in range(start_epoch, args.epochs):
        loss = train_epoch(model, train_loader, opt, args)
        sched.step()
        history["epoch"].append(epoch)
        history["train_loss"].append(loss)
        print(f"epoch {epoch} loss {loss:.4f} lr {sched.get_last_lr()[0]:.4g}", flush=True)
        if (epoch + 1) % args.val_every == 0:
            acc = evaluate(model, val_loader, args)
            history["val_acc"].append(acc)
            print(f"epoch {epoch} val_acc {acc:.3f}", flush=True)
        path = save(model, opt, sched, epoch, args.out)
        if stop_after is not None and epoch + 1 >= stop_after:
            print(f"preempted after epoch {epoch}: requeue with --resume {path}", flush=True)
            return path

    table = pd.DataFrame(history)
    table.to_csv(os.path.join(args.out, "history.csv"), index=False)
    print(table.tail(1).to_string(index=False), flush=True)
    return None
