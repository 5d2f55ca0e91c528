"""Fine-tune the word-level classifier: `python run_finetune.py --config configs/NAME.json --output_dir outputs
--seed 1`. The run's folder is `<output_dir>/<timestamp>/`."""

import argparse
import time
from pathlib import Path

import torch
from textft.callbacks import CheckpointUploader, EarlyStopping, SampleLogger
from textft.config import load_arguments
from textft.data import make_loader
from textft.modeling import Classifier
from textft.tokenizer import WordTokenizer


def main() -> None:
    cli = argparse.ArgumentParser()
    cli.add_argument("--config", required=True)
    cli.add_argument("--output_dir", default="outputs")
    cli.add_argument("--seed", type=int, default=0)
    known, rest = cli.parse_known_args()
    args, task_args = load_arguments(known.config, rest)
    torch.manual_seed(known.seed)
    run_dir = Path(known.output_dir) / time.strftime("%Y%m%d-%H%M%S") / Path(known.config).stem
    run_dir.mkdir(parents=True, exist_ok=True)
    print(f"run folder {run_dir}", flush=True)

    tokenizer = WordTokenizer(args.vocab_file, args.max_length)
    train_loader = make_loader(args.train_files, tokenizer, args, task_args)
    eval_loader = make_loader(args.eval_files, tokenizer, args, task_args)
    model = Classifier(len(tokenizer), task_args.num_labels, args.attn_implementation)

    callbacks = []
    if args.metric_for_best_model:
        callbacks.append(EarlyStopping(args.metric_for_best_model, args.early_stopping_patience))
    if args.log_samples:
        callbacks.append(SampleLogger())
    if args.push_checkpoints:
        callbacks.append(CheckpointUploader(run_dir / "hub"))

    from textft.trainer import Trainer

    trainer = Trainer(model, tokenizer, args, train_loader, eval_loader, run_dir, callbacks)
    trainer.train()
    print(f"done: {trainer.step} steps, folder {run_dir}", flush=True)


if __name__ == "__main__":
    main()
