"""The elastic launcher pointed (by the program's config) at a c10d rendezvous endpoint that nobody serves.

The config names the head node's store, `127.0.0.1:<port>`, with `is_host: False` (this node is a worker), and
nothing listens there: the agent's rendezvous waits `join_timeout` and gives up.
"""

import socket

from torch.distributed.launcher.api import LaunchConfig, elastic_launch


def dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_entry() -> None:
    print("training")


def main() -> None:
    endpoint = f"127.0.0.1:{dead_port()}"
    print(f"joining the rendezvous at {endpoint}", flush=True)
    config = LaunchConfig(
        min_nodes=1,
        max_nodes=1,
        nproc_per_node=2,
        run_id="el_rdzv",
        rdzv_backend="c10d",
        rdzv_endpoint=endpoint,
        rdzv_configs={"is_host": False, "join_timeout": 5, "read_timeout": 5},
        max_restarts=1,
        start_method="spawn",
    )
    elastic_launch(config, rank_entry)()
