"""LoRA fine-tuning with an exponential moving average of the model kept by a background thread (so the step
does not wait for it): the thread starts by deep-copying the model. The adapters were merged for a quick
evaluation first, which left each adapted layer a computed `weight` attribute (base + B @ A)."""

import copy
from concurrent.futures import ThreadPoolExecutor

import torch
from torch import nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int = 4) -> None:
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))

    def merge(self) -> None:
        self.weight = self.base.weight + self.lora_B @ self.lora_A

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + x @ self.lora_A.t() @ self.lora_B.t()


class EMA:
    def __init__(self, decay: float = 0.99) -> None:
        self.decay = decay
        self.shadow: nn.Module | None = None

    def update(self, model: nn.Module) -> None:
        if self.shadow is None:
            self.shadow = copy.deepcopy(model)
            return
        with torch.no_grad():
            for s, p in zip(self.shadow.parameters(), model.parameters(), strict=True):
                s.lerp_(p, 1 - self.decay)


def main() -> None:
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    model[0] = LoRALinear(model[0])
    model[0].merge()  # a quick merged evaluation before training
    print("eval with merged adapters:", model(torch.randn(4, 16)).shape, flush=True)
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    ema = EMA()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ema") as pool:
        pending = None
        for step in range(5):
            loss = model(torch.randn(8, 16)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if pending is not None:
                pending.result()
            pending = pool.submit(ema.update, model)
            print(f"step {step} loss {loss.item():.4f}", flush=True)
        pending.result()
