"""im_proj's entry: `python train.py --case NAME` trains a small page-layout classifier on synthetic features.

Each case is one way the project's own layout and imports fail (tests/zoo/truth_heldout67.yaml).
"""

import argparse
import sys
from pathlib import Path

import torch
from layoutkit.registry import build
from layoutkit.train import fit
from torch.utils.data import DataLoader, Dataset, TensorDataset

ROOT = Path(__file__).resolve().parent


def synthetic(n: int = 64, d: int = 16):
    g = torch.Generator().manual_seed(0)
    return torch.randn(n, d, generator=g), torch.randint(0, 4, (n,), generator=g)


def loader(ds=None, **kw):
    return DataLoader(ds if ds is not None else TensorDataset(*synthetic()), batch_size=16, **kw)


def case_circular_heads() -> None:
    from layoutkit.heads import ClassifierHead  # the focal-loss head, new in this release

    head = ClassifierHead()
    x, y = synthetic()
    print(f"head loss {head.loss(head(x), y).item():.4f}")


def case_renamed_model() -> None:
    from layoutkit.models import TinyNet  # the evaluation script's import, from before the rename

    print(fit(TinyNet(), loader()))


def case_registry_unimported() -> None:
    import layoutkit.models  # noqa: F401  registers mlp and mlp_wide

    for name in ["mlp", "conv_small"]:
        print(f"training {name}", flush=True)
        fit(build(name), loader(), epochs=1)


def case_profile_fit() -> None:
    sys.path.insert(0, str(ROOT / "tools"))  # the project's helper scripts and their step timer
    from profile import StepTimer

    with StepTimer() as t:
        fit(build_mlp(), loader(), epochs=1)
    print(f"fit took {t.times[-1]:.2f} s")


def build_mlp():
    import layoutkit.models  # noqa: F401

    return build("mlp")


def case_spawn_main_class() -> None:
    ds = JitterDataset(*synthetic())  # noqa: F821  defined under the entry point's guard below
    print(fit(build_mlp(), loader(ds, num_workers=2, multiprocessing_context="spawn"), epochs=1))


CASES = {
    "im_circular_heads": case_circular_heads,
    "im_renamed_model": case_renamed_model,
    "im_registry_unimported": case_registry_unimported,
    "im_profile_shadowed": case_profile_fit,
    "im_spawn_main_class": case_spawn_main_class,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    args = parser.parse_args()
    print(f"case {args.case}", flush=True)
    CASES[args.case]()


if __name__ == "__main__":

    class JitterDataset(Dataset):
        """Adds a little noise to each feature vector (written here, beside the entry point, to try it out)."""

        def __init__(self, x, y) -> None:
            self.x, self.y = x, y

        def __len__(self) -> int:
            return len(self.x)

        def __getitem__(self, i):
            return self.x[i] + 0.01 * torch.randn_like(self.x[i]), self.y[i]

    main()
