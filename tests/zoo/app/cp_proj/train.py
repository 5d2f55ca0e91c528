"""Train the classifier under torch.compile: `python train.py --case NAME`."""

import argparse

import torch
from compkit import loop
from compkit.model import Classifier, SeqClassifier

CASES = [
    "cp_fake_shape_pool",
    "cp_op_returns_input",
    "cp_recompile_seq_len",
    "cp_disable_in_fullgraph",
    "cp_backward_in_fullgraph",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=CASES)
    args = parser.parse_args()
    torch.manual_seed(0)
    print(f"case {args.case}", flush=True)
    if args.case == "cp_fake_shape_pool":
        model = Classifier(stage="pool")
        loop.fit(model, torch.compile(model, backend="aot_eager"))
    elif args.case == "cp_op_returns_input":
        model = Classifier(stage="clip")
        loop.fit(model, model)
    elif args.case == "cp_recompile_seq_len":
        torch._dynamo.config.recompile_limit = 4
        torch._dynamo.config.fail_on_recompile_limit_hit = True
        model = SeqClassifier()
        loop.fit_sequences(model, torch.compile(model, backend="eager", dynamic=False))
    elif args.case == "cp_disable_in_fullgraph":
        model = Classifier(stage="stats")
        loop.fit(model, torch.compile(model, backend="eager", fullgraph=True))
    elif args.case == "cp_backward_in_fullgraph":
        model = Classifier()
        step = torch.compile(loop.make_train_step(model), backend="aot_eager", fullgraph=True)
        loop.fit_compiled_step(model, step)


if __name__ == "__main__":
    main()
