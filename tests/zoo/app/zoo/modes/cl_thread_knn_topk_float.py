"""A kNN monitor for self-supervised pretraining, run in a ThreadPoolExecutor while training goes on: each
epoch's features are classified by their nearest neighbours in a labelled bank, k set to 5% of the bank
(`len(bank) * 0.05`, a float); the main collects the result at the epoch's end with future.result()."""

from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn.functional as F


def knn_accuracy(bank: torch.Tensor, bank_labels: torch.Tensor, feats: torch.Tensor, labels: torch.Tensor) -> float:
    k = len(bank) * 0.05
    sim = F.normalize(feats, dim=1) @ F.normalize(bank, dim=1).T
    _, idx = torch.topk(sim, k, dim=1)
    pred = torch.mode(bank_labels[idx], dim=1).values
    return (pred == labels).float().mean().item()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    bank_x, bank_y = torch.randn(200, 16), torch.randint(0, 4, (200,))
    val_x, val_y = torch.randn(40, 16), torch.randint(0, 4, (40,))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="knn") as pool:
        for epoch in range(2):
            for _ in range(10):
                x = torch.randn(32, 16)
                loss = -F.cosine_similarity(model(x), model(x + 0.1 * torch.randn_like(x))).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            with torch.no_grad():
                fut = pool.submit(knn_accuracy, model(bank_x), bank_y, model(val_x), val_y)
            print(f"epoch {epoch} loss {loss.item():.4f}, kNN monitor submitted", flush=True)
            print(f"epoch {epoch} kNN accuracy {fut.result():.3f}", flush=True)
