"""lr_scheduler.step() called before optimizer.step(), in a run with warnings turned into errors (as under
`python -W error` or pytest's filterwarnings=error): torch's UserWarning ends the run."""

import warnings

import torch


def main() -> None:
    warnings.simplefilter("error")
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    for _ in range(2):
        sched.step()  # before opt.step()
        model(torch.randn(2, 4)).sum().backward()
        opt.step()
