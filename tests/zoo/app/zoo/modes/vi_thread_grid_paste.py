"""Per-batch sample grids made with PIL in a ThreadPoolExecutor (so the loop does not wait); a cell is 32x32,
the last batch's images come from the random-resized-crop at 28x28; `future.result()` re-raises the thread's
error in the main."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

CELL = 32


def batch_images(step: int) -> list[Image.Image]:
    rng = np.random.default_rng(step)
    size = 28 if step == 3 else CELL
    return [Image.fromarray(rng.integers(0, 255, (size, size, 3), dtype=np.uint8)) for _ in range(8)]


def make_grid(images: list[Image.Image], cols: int = 4) -> Image.Image:
    rows = (len(images) + cols - 1) // cols
    grid = Image.new("RGB", (cols * CELL, rows * CELL))
    for k, im in enumerate(images):
        x, y = (k % cols) * CELL, (k // cols) * CELL
        grid.paste(im, (x, y, x + CELL, y + CELL))
    return grid


def main() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        pending = []
        for step in range(5):
            pending.append(pool.submit(make_grid, batch_images(step)))
            print(f"step {step}: grid queued", flush=True)
        for step, fut in enumerate(pending):
            fut.result().save(f"/tmp/vi_grid_{step}.png")
