"""A trainer that resumes from its own checkpoints: `python train.py --case NAME` (tests/zoo/HELDOUT73.md)."""

import argparse  # noqa: I001 (resumekit is this project's own package, imported from its folder)
import os
import tempfile

import torch

from resumekit import ckpt, state, train


def first_run(run_dir: str, opt_kind: str = "sgd", sched_kind: str = "step", epochs: int = 3) -> str:
    model = state.build_model()
    opt = state.build_optimizer(model, opt_kind)
    sched = state.build_scheduler(opt, sched_kind)
    train.fit(model, opt, sched, 0, epochs)
    path = os.path.join(run_dir, f"epoch{epochs}.pt")
    ckpt.save(path, model, opt, sched, epochs)
    print(f"saved {path}", flush=True)
    return path


def case_sched_other_class(run_dir: str) -> None:
    """The second run switched to a warmup LambdaLR; the checkpoint holds the first run's StepLR."""
    path = first_run(run_dir)
    model = state.build_model()
    opt = state.build_optimizer(model, "sgd")
    sched = state.build_scheduler(opt, "warmup")
    start = ckpt.restore(path, model, opt, sched)
    train.fit(model, opt, sched, start, 6)


def case_sgd_into_adam(run_dir: str) -> None:
    """The second run switched to Adam; the checkpoint holds the first run's SGD state."""
    path = first_run(run_dir)
    model = state.build_model()
    opt = state.build_optimizer(model, "adam")
    sched = state.build_scheduler(opt, "step")
    start = ckpt.restore(path, model, opt, sched)
    print(f"resumed at epoch {start}", flush=True)
    train.fit(model, opt, sched, start, 6)


def case_epoch_float_tensor(run_dir: str) -> None:
    """The epoch counter is saved as a float tensor (kept beside the averaged metrics) and restored as one."""
    model = state.build_model()
    opt = state.build_optimizer(model, "sgd")
    sched = state.build_scheduler(opt, "step")
    train.fit(model, opt, sched, 0, 3)
    path = os.path.join(run_dir, "epoch3.pt")
    ckpt.save(path, model, opt, sched, torch.tensor([3.0]).mean())
    print(f"saved {path}", flush=True)
    start = ckpt.restore(ckpt.find_resume(run_dir), model, opt, sched)
    print(f"resumed at epoch {start}", flush=True)
    train.fit(model, opt, sched, start, 6)


def case_fresh_fallback(run_dir: str) -> None:
    """The requeued run looks for its checkpoint in a folder named after the job, not the run: no `latest`
    there, so it starts afresh, and its own check after training finds the step count too low."""
    first_run(run_dir)
    model = state.build_model()
    opt = state.build_optimizer(model, "sgd")
    sched = state.build_scheduler(opt, "step")
    resume_dir = os.path.join(os.path.dirname(run_dir), "job-0")
    path = ckpt.find_resume(resume_dir)
    start = ckpt.restore(path, model, opt, sched) if path else 0
    done = train.fit(model, opt, sched, start, 6)
    epochs_here = done - start
    if epochs_here != 3:
        raise RuntimeError(f"resumed run trained {epochs_here} epochs, expected 3: did it resume?")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    run_dir = tempfile.mkdtemp(prefix="rv-")
    globals()[f"case_{args.case}"](run_dir)


if __name__ == "__main__":
    main()
