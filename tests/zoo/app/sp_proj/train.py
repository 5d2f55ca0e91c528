"""A toy trainer that runs the system's tools itself: `python train.py --case NAME`, each case one way a tool call
goes wrong."""

import argparse
import os
import tempfile

import torch
from toolkit import prep, tools
from toolkit.train import fit
from torch.utils.data import DataLoader


def random_batches(n: int = 4):
    for _ in range(n):
        yield torch.randn(8, 12), torch.randint(0, 4, (8,))


def case_sp_git_describe_outside(out: str) -> None:
    print(f"loss {fit(random_batches(), 12):.4f}")
    name = tools.run_name(out)
    torch.save({"name": name}, os.path.join(out, f"{name}.pt"))


def case_sp_ffmpeg_worker(out: str) -> None:
    loader = DataLoader(prep.Clips(out), batch_size=4, num_workers=2)
    print(f"decoding {len(loader.dataset)} clips with ffmpeg in 2 workers")
    print(f"loss {fit(loader, 800):.4f}")


def case_sp_gzip_text_decode(out: str) -> None:
    labels = os.path.join(out, "labels.tsv.gz")
    prep.write_labels(labels)
    rows = tools.read_gz_lines(labels)
    print(f"{len(rows)} labels")


def case_sp_shell_path_space(out: str) -> None:
    data = os.path.join(out, "my data")
    os.makedirs(data)
    src, dst = os.path.join(data, "manifest.txt"), os.path.join(data, "manifest.sorted.txt")
    prep.write_manifest(src)
    tools.sort_unique(src, dst)
    with open(dst) as f:
        print(f"{sum(1 for _ in f)} unique clips")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=[n[5:] for n in globals() if n.startswith("case_")])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        globals()[f"case_{args.case}"](out)


if __name__ == "__main__":
    main()
