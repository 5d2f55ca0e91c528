"""The cases `train.py --case NAME` runs."""

import os
import tempfile

import torch

from egtrain import data, model, shards, uploads


def taskgroup_short_shard() -> None:
    print(f"indexed {shards.build_index()}", flush=True)


def worker_label_note() -> None:
    net = torch.nn.Linear(8, 4)
    for step, (x, y) in enumerate(data.loader()):
        loss = torch.nn.functional.cross_entropy(net(x), y)
        print(f"step {step} loss {loss.item():.3f}", flush=True)


def exit_replace_masks_bmm() -> None:
    torch.manual_seed(0)
    net = model.Attention(dim=16, kv_len=8)
    path = os.path.join(tempfile.mkdtemp(prefix="eg_ckpt_"), "last.pt")
    for step in range(3):
        with model.AtomicCheckpoint(path) as ckpt:
            out = net(torch.randn(4, 16, 16))
            out.mean().backward()
            torch.save(net.state_dict(), ckpt.tmp)
        print(f"step {step} saved", flush=True)


def hang_heartbeat_swallows_cancel() -> None:
    print(f"manifest {shards.stream_index()}", flush=True)


def hang_exit_uploader() -> None:
    uploads.start_training()


CASES = {
    "taskgroup_short_shard": taskgroup_short_shard,
    "worker_label_note": worker_label_note,
    "exit_replace_masks_bmm": exit_replace_masks_bmm,
    "hang_heartbeat_swallows_cancel": hang_heartbeat_swallows_cancel,
    "hang_exit_uploader": hang_exit_uploader,
}
