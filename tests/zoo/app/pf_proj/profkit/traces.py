"""Profiler traces: op counts for an epoch, a Chrome trace of some steps, and a summary read back from it."""

import json
import os

import torch


def op_counts():
    """An older helper's op counter for a whole epoch (the legacy autograd profiler)."""
    return torch.autograd.profiler_legacy.profile()


def step_profiler():
    return torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True)


def summarize(trace_path: str) -> dict:
    with open(trace_path) as f:
        events = json.load(f)["traceEvents"]
    return {"events": len(events), "ops": sum(1 for e in events if e.get("cat") == "cpu_op")}


def trace_path(run_dir: str, name: str) -> str:
    return os.path.join(run_dir, "traces", f"{name}.json")
