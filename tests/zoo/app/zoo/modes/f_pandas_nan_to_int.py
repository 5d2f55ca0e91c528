"""Labels come from an annotation sheet exported to CSV; two rows were never labelled (empty cells, read as
NaN), and the loader casts the label column to int."""

import io

import pandas as pd
import torch

SHEET = "file,label\n" + "".join(f"clip_{i:03d}.wav,{'' if i in (7, 19) else i % 5}\n" for i in range(32))


def load_labels(text: str) -> torch.Tensor:
    df = pd.read_csv(io.StringIO(text))
    print(f"{len(df)} rows, columns {list(df.columns)}", flush=True)
    labels = df["label"].astype(int)
    return torch.tensor(labels.to_numpy())


def main() -> None:
    labels = load_labels(SHEET)
    print(f"classes: {labels.bincount().tolist()}", flush=True)
