"""Train the hand-written detector on synthetic shapes: `python scripts/train_det.py --case NAME --num-classes 3`.

The case names a variant of the default configuration (the matrix passes it as `--case`); detlab is found
through PYTHONPATH set to the project.
"""

import argparse

from detlab.engine import train

DEFAULTS = {
    "anchor_sizes": ((16,), (32,)),
    "strides": (8, 16),
    "collate": "lists",
    "workers": 0,
    "flip": False,
    "xywh": False,
    "empty_every": 5,
    "clamp_num_pos": True,
    "score_thresh": 0.005,
    "steps": 4,
}

CASES = {
    "baseline": {},
    # the tutorials' tuple collate, with the loop written for a stacked batch
    "dt_collate_tuple_to": {"collate": "tuples"},
    # COCO-style annotations (x, y, w, h) read as corners
    "dt_giou_xywh_assert": {"xywh": True},
    # anchor sizes for three levels (P3-P5) while the backbone gives two
    "dt_anchor_levels_mismatch": {"anchor_sizes": ((16,), (32,), (64,)), "strides": (8, 16, 32)},
    # the focal loss divided by the number of positives, unclamped; every fifth image has no object
    "dt_focal_empty_histc": {"clamp_num_pos": False},
    # a score threshold above what an untrained head (prior 0.01) gives
    "dt_nms_empty_max": {"score_thresh": 0.3},
    # a horizontal flip in 2 DataLoader workers that mirrors x1 and x2 without swapping them
    "dt_worker_flip_boxes": {"flip": True, "workers": 2},
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", default="baseline", choices=sorted(CASES))
    parser.add_argument("--num-classes", type=int, default=3)
    args = parser.parse_args()
    cfg = {**DEFAULTS, **CASES[args.case], "num_classes": args.num_classes}
    print(f"case {args.case}: {args.num_classes} classes", flush=True)
    train(cfg)


if __name__ == "__main__":
    main()
