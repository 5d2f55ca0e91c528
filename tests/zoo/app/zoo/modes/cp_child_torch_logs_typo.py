"""Evaluation runs in a child process after training; to see why it recompiles, the child is started with
TORCH_LOGS="graph_breaks,recompile" (the artifact is `recompiles`). The child fails at `import torch`, and the
parent's `subprocess.run(..., check=True)` raises."""

import os
import subprocess
import sys

import torch


def evaluate() -> None:
    model = torch.compile(torch.nn.Linear(8, 2), backend="eager")
    print(f"eval logits {tuple(model(torch.randn(4, 8)).shape)}", flush=True)


def main() -> None:
    model = torch.nn.Linear(8, 2)
    loss = model(torch.randn(16, 8)).pow(2).mean()
    loss.backward()
    print(f"trained, loss {loss.item():.4f}; evaluating in a child", flush=True)
    env = dict(os.environ, TORCH_LOGS="graph_breaks,recompile")
    app = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-m", "zoo.modes.cp_child_torch_logs_typo", "eval"], env=env, cwd=app, check=True)


if __name__ == "__main__" and sys.argv[1:] == ["eval"]:
    evaluate()
