"""After a few training steps (torch's OpenMP pool now running), the trainer evaluates in a forked child to keep
the main's memory clean. GNU OpenMP's pool does not survive fork: the child's first parallel op waits for pool
threads that do not exist in it, and the main waits in join() for the child for ever.
"""

import multiprocessing as mp

import torch


def evaluate(model: torch.nn.Module) -> None:
    print("[eval] child started", flush=True)
    x = torch.randn(256, 512)
    with torch.no_grad():
        score = model(torch.tanh(x)).mean()
    print(f"[eval] score {float(score):.3f}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(3):
        loss = model(torch.tanh(torch.randn(256, 512))).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {float(loss):.4f}", flush=True)
    child = mp.get_context("fork").Process(target=evaluate, args=(model,), name="evaluator")
    child.start()
    child.join()
    print(f"evaluator exited {child.exitcode}", flush=True)
