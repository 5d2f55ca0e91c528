"""The training loop and a short evaluation with NMS."""

import torch
from torch.utils.data import DataLoader

from detlab.boxes import batched_nms
from detlab.data import Shapes, collate_lists, collate_tuples
from detlab.heads import AnchorGenerator, Backbone, Head
from detlab.losses import image_loss


def build(cfg: dict):
    backbone, head = Backbone(), Head(cfg["num_classes"])
    anchors = AnchorGenerator(cfg["anchor_sizes"], cfg["strides"])
    return backbone, head, anchors


def train(cfg: dict) -> None:
    torch.manual_seed(0)
    device = torch.device("cpu")
    data = Shapes(48, cfg["num_classes"], flip=cfg["flip"], xywh=cfg["xywh"], empty_every=cfg["empty_every"])
    collate = collate_tuples if cfg["collate"] == "tuples" else collate_lists
    loader = DataLoader(data, batch_size=4, shuffle=False, num_workers=cfg["workers"], collate_fn=collate)
    backbone, head, anchor_gen = build(cfg)
    opt = torch.optim.SGD([*backbone.parameters(), *head.parameters()], lr=0.01, momentum=0.9)
    for step, (images, targets) in enumerate(loader):
        images = images.to(device)
        feats = backbone(images)
        anchors = anchor_gen(feats)
        cls, reg = head(feats)
        per_image = torch.stack(
            [
                image_loss(cls[b], reg[b], anchors, t, cfg["num_classes"], cfg["clamp_num_pos"])
                for b, t in enumerate(targets)
            ]
        )
        hist = torch.histc(per_image.detach(), bins=4)  # the spread of the batch's losses, for the log
        loss = per_image.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f} hist {hist.int().tolist()}", flush=True)
        if step == cfg["steps"] - 1:
            break
    evaluate(cfg, backbone, head, anchor_gen, data)


@torch.no_grad()
def evaluate(cfg: dict, backbone, head, anchor_gen, data) -> None:
    images = torch.stack([data[i][0] for i in range(4)])
    feats = backbone(images)
    anchors = anchor_gen(feats)
    cls, reg = head(feats)
    for b in range(len(images)):
        scores, labels = cls[b].sigmoid().max(dim=1)
        keep = scores > cfg["score_thresh"]
        boxes = anchors[keep] + reg[b][keep] * (anchors[keep, 2:] - anchors[keep, :2]).repeat(1, 2)
        kept = batched_nms(boxes, scores[keep], labels[keep], 0.5)
        print(f"eval image {b}: {len(kept)} detections", flush=True)
