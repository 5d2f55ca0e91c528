"""A Trainer-like loop: gradient accumulation, evaluation every N steps, callbacks, checkpoint rotation."""

from pathlib import Path

import torch


class Trainer:
    def __init__(self, model, tokenizer, args, train_loader, eval_loader, output_dir: Path, callbacks) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.args = args
        self.train_loader = train_loader
        self.eval_loader = eval_loader
        self.output_dir = output_dir
        self.callbacks = callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        self.step = 0
        self.should_stop = False
        self.last_samples = []

    def evaluate(self) -> dict:
        self.model.eval()
        losses, correct, seen = [], 0, 0
        with torch.no_grad():
            for batch in self.eval_loader:
                loss, logits = self.model(**batch)
                losses.append(loss.item())
                preds = logits.argmax(-1)
                correct += (preds == batch["labels"]).sum().item()
                seen += len(preds)
                self.last_samples = list(zip(batch["input_ids"][:3].tolist(), preds[:3].tolist()))
        self.model.train()
        metrics = {"eval/loss": sum(losses) / len(losses), "eval/accuracy": correct / seen}
        print(f"step {self.step} {metrics}", flush=True)
        for cb in self.callbacks:
            cb.on_evaluate(self, metrics)
        return metrics

    def save(self) -> None:
        checkpoint = self.output_dir / f"checkpoint-{self.step}"
        checkpoint.mkdir(parents=True)
        torch.save(self.model.state_dict(), checkpoint / "model.pt")
        torch.save(self.optimizer.state_dict(), checkpoint / "optimizer.pt")
        for cb in self.callbacks:
            cb.on_save(self, checkpoint)
        self._rotate_checkpoints()

    def _rotate_checkpoints(self) -> None:
        checkpoints = sorted(self.output_dir.glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))
        for old in checkpoints[: -self.args.save_total_limit]:
            for name in ("model.pt", "optimizer.pt"):
                (old / name).unlink()
            old.rmdir()

    def train(self) -> None:
        self.model.train()
        for epoch in range(self.args.epochs):
            for i, batch in enumerate(self.train_loader):
                loss, _ = self.model(**batch)
                (loss / self.args.grad_accum).backward()
                if (i + 1) % self.args.grad_accum:
                    continue
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.step += 1
                if self.step % self.args.eval_steps == 0:
                    self.evaluate()
                if self.step % self.args.save_steps == 0:
                    self.save()
                if self.should_stop:
                    break
            print(f"epoch {epoch} done at step {self.step}", flush=True)
            if self.should_stop:
                break
        for cb in self.callbacks:
            cb.on_train_end(self)
