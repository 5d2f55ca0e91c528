"""Each trial runs as a child process, `python -m zoo.modes.hp_child_trial_cwd CONFIG`, started in its own
trial directory (as Ray Tune starts a trainable in its trial directory) with the app on PYTHONPATH; the
trainer opens its data by the path relative to the study's folder, which does not exist from there; the parent
runs the children with check=True and fails on the first one's exit status."""

import json
import os
import subprocess
import sys
import tempfile

DATA = "data/hp_train.pt"


def train(config: dict) -> float:
    import torch

    x, y = torch.load(DATA)  # relative to the study's folder: the child runs in its trial directory
    w = torch.zeros(x.shape[1], requires_grad=True)
    opt = torch.optim.SGD([w], lr=config["lr"])
    for _ in range(10):
        loss = (x @ w - y).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main() -> None:
    import torch

    app = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(tempfile.mkdtemp(prefix="hp-study-"))  # the study's folder: data/ and trials/
    os.makedirs("data")
    torch.save((torch.randn(64, 4), torch.randn(64)), DATA)
    root = os.path.abspath("trials")
    for number, lr in enumerate([0.1, 0.01]):
        trial_dir = os.path.join(root, f"trial_{number}")
        os.makedirs(trial_dir)
        with open(os.path.join(trial_dir, "params.json"), "w") as f:
            json.dump({"lr": lr}, f)
        env = {**os.environ, "PYTHONPATH": app}
        cmd = [sys.executable, "-m", "zoo.modes.hp_child_trial_cwd", "params.json"]
        out = subprocess.run(cmd, cwd=trial_dir, env=env, stdout=subprocess.PIPE, text=True, check=True)
        print(f"trial {number}: {out.stdout.strip()}", flush=True)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps({"loss": train(json.load(f))}))
