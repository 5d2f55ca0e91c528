"""A synthetic detection set: 64x64 images with 0-3 bright rectangles, their boxes (xyxy) and labels."""

import torch
from torch.utils.data import Dataset

SIZE = 64


def check_boxes(boxes: torch.Tensor, index: int) -> None:
    degenerate = boxes[:, 2:] <= boxes[:, :2]
    if degenerate.any():
        bad = boxes[degenerate.any(dim=1)][0].tolist()
        raise ValueError(
            "All bounding boxes should have positive height and width."
            f" Found invalid box {bad} for target at index {index}."
        )


class Shapes(Dataset):
    def __init__(self, n: int, num_classes: int, flip: bool = False, xywh: bool = False, empty_every: int = 0):
        self.n, self.num_classes, self.flip, self.xywh, self.empty_every = n, num_classes, flip, xywh, empty_every

    def __len__(self) -> int:
        return self.n

    def sample(self, i: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        g = torch.Generator().manual_seed(i)
        k = 0 if self.empty_every and i % self.empty_every == 0 else int(torch.randint(1, 4, (), generator=g))
        img = torch.rand(3, SIZE, SIZE, generator=g) * 0.1
        boxes, labels = [], []
        for _ in range(k):
            x1, y1 = torch.randint(0, SIZE - 20, (2,), generator=g).tolist()
            w, h = torch.randint(8, 20, (2,), generator=g).tolist()
            img[:, y1 : y1 + h, x1 : x1 + w] += 0.8
            boxes.append([x1, y1, w, h] if self.xywh else [x1, y1, x1 + w, y1 + h])
            labels.append(int(torch.randint(0, self.num_classes, (), generator=g)))
        return img, torch.tensor(boxes, dtype=torch.float32).reshape(-1, 4), torch.tensor(labels, dtype=torch.long)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, dict]:
        img, boxes, labels = self.sample(i)
        if self.flip and i % 3 == 2:
            img = img.flip(-1)
            boxes[:, [0, 2]] = SIZE - boxes[:, [0, 2]]  # x1, x2 mirrored but not swapped
        if not self.xywh:
            check_boxes(boxes, i)
        return img, {"boxes": boxes, "labels": labels}


def collate_lists(batch: list) -> tuple[torch.Tensor, list[dict]]:
    """Images are one size and stacked; every image keeps its own number of targets, in a list."""
    images, targets = zip(*batch)
    return torch.stack(images), list(targets)


def collate_tuples(batch: list) -> tuple:
    """The detection tutorials' collate: a tuple of images and a tuple of targets."""
    return tuple(zip(*batch))
