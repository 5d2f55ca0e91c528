"""A profiler started by hand (`prof.start()`) for the first steps; the stop is in a branch the loop never
reaches (the profile window is 10 steps, the run 5), so the process exits with the profiler still running."""

import torch

PROFILE_WINDOW = 10


def main() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
    prof.start()
    for step in range(1, 6):
        loss = model(torch.randn(16, 32)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % PROFILE_WINDOW == 0:
            prof.stop()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
    print("training done", flush=True)
