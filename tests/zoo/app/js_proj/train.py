"""Train the tagger and ship it: `python train.py --case NAME` (tests/zoo/HELDOUT78.md)."""

import argparse
import os
import tempfile

import torch
from exportkit.export import (
    evaluate_exported,
    export_for_serving,
    export_pooler,
    load_and_predict,
    script_and_save,
)
from exportkit.nets import LeakyTagger, LengthPooler, Tagger
from exportkit.train import batches, fit


def case_load_unexported_method(out: str):
    model = fit(Tagger())
    path = script_and_save(model, os.path.join(out, "tagger.pt"))
    print(f"saved {path}", flush=True)
    print(load_and_predict(path, torch.randn(4, 8)))


def case_export_batch_guard(out: str):
    model = fit(Tagger())
    program = export_for_serving(model, torch.randn(16, 8))
    print("exported; evaluating 100 held-out examples in batches of 16", flush=True)
    print(f"accuracy {evaluate_exported(program, batches(100, 16)):.3f}")


def case_script_partial_leaky(out: str):
    model = fit(LeakyTagger())
    script_and_save(model, os.path.join(out, "tagger.pt"))


def case_export_pooler_lengths(out: str):
    pooler = LengthPooler()
    frames = torch.randn(4, 12, 8)
    lengths = torch.tensor([12, 7, 9, 3])
    print(f"pooled {tuple(pooler(frames, lengths).shape)} eagerly; exporting", flush=True)
    export_pooler(pooler, frames, lengths)


CASES = {
    "js_load_unexported_method": case_load_unexported_method,
    "js_export_batch_guard": case_export_batch_guard,
    "js_script_partial_leaky": case_script_partial_leaky,
    "js_export_pooler_lengths": case_export_pooler_lengths,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as out:
        CASES[args.case](out)


if __name__ == "__main__":
    main()
