"""Boxes as (N, 4) tensors in xyxy; IoU, generalised IoU and a batched NMS written by hand."""

import torch


def box_area(boxes: torch.Tensor) -> torch.Tensor:
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(boxes1: torch.Tensor, boxes2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = box_area(boxes1)[:, None] + box_area(boxes2) - inter
    return inter / union, union


def generalized_box_iou(boxes1: torch.Tensor, boxes2: torch.Tensor) -> torch.Tensor:
    # degenerate boxes give inf / nan results, so check early (as DETR's box_ops does)
    assert (boxes1[:, 2:] >= boxes1[:, :2]).all()
    assert (boxes2[:, 2:] >= boxes2[:, :2]).all()
    iou, union = box_iou(boxes1, boxes2)
    lt = torch.min(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.max(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[..., 0] * wh[..., 1]
    return iou - (area - union) / area


def nms(boxes: torch.Tensor, scores: torch.Tensor, thresh: float) -> torch.Tensor:
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        iou, _ = box_iou(boxes[i][None], boxes[order[1:]])
        order = order[1:][iou[0] <= thresh]
    return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)


def batched_nms(boxes: torch.Tensor, scores: torch.Tensor, labels: torch.Tensor, thresh: float) -> torch.Tensor:
    # one NMS for every class at once: move each class's boxes apart by more than the largest coordinate
    max_coordinate = boxes.max()
    offsets = labels.to(boxes) * (max_coordinate + 1)
    return nms(boxes + offsets[:, None], scores, thresh)
