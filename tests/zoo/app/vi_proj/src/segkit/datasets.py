"""The project's data: small images and masks written at start into data/<case>/, and the dataset reading them."""

import os
from multiprocessing import Pool

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset

NUM_CLASSES = 3
COLOURS = np.array([[0, 0, 0], [220, 20, 60], [0, 128, 255]], dtype=np.uint8)


def _picture(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    mask = np.zeros((h, w), dtype=np.uint8)
    y, x = rng.integers(0, h // 2), rng.integers(0, w // 2)
    mask[y : y + h // 2, x : x + w // 2] = rng.integers(1, NUM_CLASSES)
    img = rng.integers(0, 60, (h, w, 3), dtype=np.uint8) + COLOURS[mask] // 2
    return img.astype(np.uint8), mask


def write_data(root: str, case: str, n: int = 16) -> str:
    """Writes n images (images/) and their masks (masks/), as the case's data was collected."""
    rng = np.random.default_rng(0)
    for sub in ("images", "masks"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for i in range(n):
        h, w = 32, 48
        if case == "worker_crop_numpy_high" and i == 13:
            h, w = 30, 30  # a thumbnail that slipped into the folder
        img, mask = _picture(rng, h, w)
        name = f"img_{i:02d}"
        if case == "exif_mask_swap":
            # phone photos taken upright: the sensor's pixels stored landscape with EXIF orientation 6; the
            # annotation tool showed them upright, so the masks were drawn (and saved) portrait
            exif = Image.Exif()
            exif[0x0112] = 6
            Image.fromarray(img).save(os.path.join(root, "images", name + ".jpg"), exif=exif)
            Image.fromarray(np.ascontiguousarray(np.rot90(mask, -1))).save(os.path.join(root, "masks", name + ".png"))
            continue
        if case == "child_exif_none" and i == 6:
            Image.fromarray(img).save(os.path.join(root, "images", name + ".jpg"))  # re-saved by an editor: no EXIF
        elif case == "child_exif_none":
            exif = Image.Exif()
            exif[0x0112] = 1
            Image.fromarray(img).save(os.path.join(root, "images", name + ".jpg"), exif=exif)
        elif case == "worker_16bit_autocontrast" and i == 9:
            gray16 = (img.mean(axis=2) * 257).astype(np.uint16)  # a scanner's 16-bit grayscale export
            Image.fromarray(gray16).save(os.path.join(root, "images", name + ".png"))
        else:
            Image.fromarray(img).save(os.path.join(root, "images", name + ".png"))
        if case == "mask_rgb_targets":
            Image.fromarray(COLOURS[mask]).save(os.path.join(root, "masks", name + ".png"))  # colour-coded export
        else:
            Image.fromarray(mask).save(os.path.join(root, "masks", name + ".png"))
    return root


def image_paths(root: str) -> list[str]:
    return sorted(os.path.join(root, "images", f) for f in os.listdir(os.path.join(root, "images")))


def _thumbnail(path: str) -> str:
    """Applies the EXIF orientation (the old recipe) and writes a small cached copy."""
    im = Image.open(path)
    orientation = im._getexif().get(274, 1)
    if orientation == 6:
        im = im.rotate(-90, expand=True)
    out = path.replace("images", "cache").rsplit(".", 1)[0] + ".png"
    im.convert("RGB").resize((24, 16)).save(out)
    return out


def build_thumbnail_cache(root: str, processes: int = 2) -> list[str]:
    os.makedirs(os.path.join(root, "cache"), exist_ok=True)
    with Pool(processes) as pool:
        return pool.map(_thumbnail, image_paths(root))


class SegDataset(Dataset):
    def __init__(self, root: str, transform=None, normalize=None):
        self.root = root
        self.images = image_paths(root)
        self.transform, self.normalize = transform, normalize

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        img = Image.open(self.images[i])
        name = os.path.basename(self.images[i]).rsplit(".", 1)[0]
        mask = Image.open(os.path.join(self.root, "masks", name + ".png"))
        if self.transform is not None:
            img, mask = self.transform(img, mask)
        x = torch.from_numpy(np.array(img.convert("RGB"), dtype=np.float32) / 255.0).permute(2, 0, 1)
        if self.normalize is not None:
            x = self.normalize(x)
        y = torch.from_numpy(np.array(mask)).long()
        return x, y


class PreloadedSegDataset(SegDataset):
    """Opens every image once, up front, to read its size for bucketing, and keeps the opened images to spare
    the workers a second open."""

    def __init__(self, root: str, transform=None, normalize=None):
        super().__init__(root, transform, normalize)
        self.opened, self.sizes = [], []
        for path in self.images:
            with Image.open(path) as im:
                self.opened.append(im)
                self.sizes.append(im.size)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        img = self.opened[i]
        name = os.path.basename(self.images[i]).rsplit(".", 1)[0]
        mask = Image.open(os.path.join(self.root, "masks", name + ".png"))
        x = torch.from_numpy(np.array(img.convert("RGB"), dtype=np.float32) / 255.0).permute(2, 0, 1)
        return x, torch.from_numpy(np.array(mask)).long()
