"""PCA of log-count features for a plot: `torch.log(counts)` of a vocabulary where one word never occurs gives -inf,
and torch.linalg.svd of the centred matrix refuses the non-finite values."""

import torch


def main() -> None:
    torch.manual_seed(0)
    counts = torch.randint(1, 50, (40, 12)).float()
    counts[:, 7] = 0.0
    feats = torch.log(counts)
    centred = feats - feats.mean(0)
    print(f"features {tuple(feats.shape)}", flush=True)
    u, s, vh = torch.linalg.svd(centred, full_matrices=False)
    print(f"explained {s[:2] / s.sum()}", flush=True)
