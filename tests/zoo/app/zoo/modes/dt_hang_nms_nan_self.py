"""A hand-written NMS that drops, from the remaining boxes, those overlapping the kept box by more than the
threshold (the kept box among them, its IoU with itself being 1). One predicted box has collapsed to zero
width; its IoU with itself is 0/0 = NaN, `NaN > 0.5` is False, so it is never dropped and the loop keeps
picking it for ever."""

import torch


def box_iou(box: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
    lt = torch.max(box[:2], boxes[:, :2])
    rb = torch.min(box[2:], boxes[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return inter / ((box[2] - box[0]) * (box[3] - box[1]) + area - inter)


def nms(boxes: torch.Tensor, scores: torch.Tensor, thresh: float) -> list[int]:
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(int(i))
        iou = box_iou(boxes[i], boxes[order])
        order = order[~(iou > thresh)]
    return keep


def main() -> None:
    g = torch.Generator().manual_seed(0)
    xy = torch.rand(50, 2, generator=g) * 100
    boxes = torch.cat([xy, xy + 10 + torch.rand(50, 2, generator=g) * 20], 1)
    scores = torch.rand(50, generator=g)
    boxes[int(scores.argmax()), 2] = boxes[int(scores.argmax()), 0]  # the top box has collapsed to zero width
    print(f"running NMS on {len(boxes)} boxes", flush=True)
    keep = nms(boxes, scores, 0.5)
    print(f"kept {len(keep)} boxes", flush=True)
