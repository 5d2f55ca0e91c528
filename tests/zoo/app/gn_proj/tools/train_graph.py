"""Train graphkit's models: python tools/train_graph.py --case NAME [--aggr sum] [--workers N]."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphkit.loop import fit  # noqa: E402

DEFAULTS = {
    "task": "graphs",
    "aggr": "sum",
    "workers": 0,
    "drop_edges_every": 0,
    "edges": "index",
    "norm": "values",
    "product": "mm",
}
CASES = {
    "gn_scatter_mean_dims": {"aggr": "mean"},
    "gn_collate_dropped_graph": {"workers": 2, "drop_edges_every": 7},
    "gn_collate_sparse_default": {"task": "dense", "workers": 2},
    "gn_edge_pairs_coo": {"task": "nodes", "edges": "pairs"},
    "gn_sparse_degree_div": {"task": "nodes", "norm": "divide"},
    "gn_hspmm_backward": {"task": "nodes", "product": "hspmm"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--aggr", default=None, choices=["sum", "mean", "amax"])
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    given = {k: v for k, v in vars(args).items() if v is not None and k != "case"}
    cfg = {**DEFAULTS, **CASES[args.case], **given}
    print(f"case {args.case}: {cfg}", flush=True)
    fit(cfg)


if __name__ == "__main__":
    main()
