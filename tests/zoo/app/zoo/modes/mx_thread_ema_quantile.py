"""An EMA of the weights kept in bfloat16, updated by a background thread (ThreadPoolExecutor) after each step;
the thread logs the median drift of the shadow weights with torch.quantile, which takes float or double only.
The main re-raises the thread's error from `future.result()`."""

from concurrent.futures import ThreadPoolExecutor

import torch


def ema_update(shadow: list[torch.Tensor], params: list[torch.Tensor], decay: float) -> float:
    drifts = []
    with torch.no_grad():
        for s, p in zip(shadow, params):
            new = s * decay + p.detach().to(s.dtype) * (1 - decay)
            drifts.append((new - s).abs().flatten())
            s.copy_(new)
    return torch.quantile(torch.cat(drifts), 0.5).item()


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    shadow = [p.detach().to(torch.bfloat16).clone() for p in model.parameters()]
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ema")
    pending = None
    for step in range(4):
        loss = model(torch.randn(32, 16)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if pending is not None:
            print(f"step {step} ema drift {pending.result():.2e}", flush=True)
        pending = pool.submit(ema_update, shadow, list(model.parameters()), 0.99)
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    print(f"final ema drift {pending.result():.2e}")
