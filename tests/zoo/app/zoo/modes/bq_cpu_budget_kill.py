"""The job's CPU-time budget (`ulimit -t`, soft 4 s, hard 6 s of CPU beyond what the start-up used): the program
catches SIGXCPU to "finish the epoch and save" and goes on training; the kernel repeats SIGXCPU each second past
the soft limit and sends SIGKILL at the hard one. Nothing is saved; the process is killed with no traceback.
"""

import resource
import signal

import torch

STATE = {"warned": False}


def on_cpu_budget(signum, frame) -> None:
    if not STATE["warned"]:
        print("cpu budget exceeded: finishing the epoch before saving", flush=True)
    STATE["warned"] = True


def cpu_used() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return int(usage.ru_utime + usage.ru_stime) + 1


def main() -> None:
    signal.signal(signal.SIGXCPU, on_cpu_budget)
    used = cpu_used()
    resource.setrlimit(resource.RLIMIT_CPU, (used + 4, used + 6))
    torch.set_num_threads(1)
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.Tanh(), torch.nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(512, 256, generator=torch.Generator().manual_seed(0))
    for epoch in range(10):
        for step in range(3000):  # an epoch: about 15 s of CPU here
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 500 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        if STATE["warned"]:
            torch.save(model.state_dict(), "bq_cpu_budget_kill.pt")
            return
