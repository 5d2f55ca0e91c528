"""The training loop and its cases."""

import torch

from endkit import cleanup, workers


def fit(steps: int = 6) -> float:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = torch.tensor(0.0)
    for _step in range(steps):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def atexit_summary_keyerror() -> None:
    cleanup.register_summary()
    loss = fit()
    cleanup.STATS["steps"] = 6
    cleanup.STATS["last_loss"] = loss
    print(f"training done, loss {loss:.4f}", flush=True)


def del_after_init_fail() -> None:
    log = cleanup.RunLog("runs/sd-exp-3")
    log.write(f"loss {fit():.4f}")


def thread_sys_exit_hang() -> None:
    cleanup.register_flush()
    workers.start_writer("/tmp/sd_metrics.csv")
    for step in range(4):
        loss = fit(2)
        workers.RECORDS.put({"step": step, "loss": loss if step < 2 else torch.tensor(loss)})
    print("training done", flush=True)


def c_exit_handler_segv() -> None:
    lib = cleanup.load_ring()
    loader = workers.make_loader()
    model = torch.nn.Linear(8, 1)
    for epoch in range(2):
        total = 0.0
        for x, y in loader:
            total += torch.nn.functional.mse_loss(model(x), y).item()
        print(f"epoch {epoch}: loss {total:.4f}", flush=True)
    lib.ring_close()
    print("training done", flush=True)


CASES = {
    f.__name__: f for f in [atexit_summary_keyerror, del_after_init_fail, thread_sys_exit_hang, c_exit_handler_segv]
}
