"""A live-metrics key-value store (a TCPStore master) started on the trainer's MASTER_PORT; then
`init_process_group("gloo")` through env://, one process, whose own store wants the same port."""

import os
from datetime import timedelta

import torch.distributed as dist

PORT = 29517


def start_metrics_store() -> dist.TCPStore:
    return dist.TCPStore("127.0.0.1", int(os.environ["MASTER_PORT"]), is_master=True, wait_for_workers=False)


def main() -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(PORT), RANK="0", WORLD_SIZE="1")
    store = start_metrics_store()
    store.set("status", "starting")
    print("metrics store up", flush=True)
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    print("process group up", flush=True)
