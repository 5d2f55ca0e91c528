"""A GAN's sample previews written by a child process (multiprocessing, fork) into a shared preview buffer
with ctypes.memmove: the buffer is sized from the grid's rows, computed as `n_samples // cols` with 4 samples
and 8 columns, so it holds 0 bytes and its data pointer is NULL; the child dies by SIGSEGV and the main,
finding the writer's exit code -11, gives up."""

import ctypes
import multiprocessing as mp

import torch


def grid_buffer(n_samples: int, cols: int, side: int) -> torch.Tensor:
    rows = n_samples // cols
    return torch.empty(rows * side, cols * side, dtype=torch.uint8)


def write_preview(samples: torch.Tensor, cols: int) -> None:
    side = samples.shape[-1]
    buf = grid_buffer(len(samples), cols, side)
    pixels = ((samples.clamp(-1, 1) + 1) * 127.5).to(torch.uint8).contiguous()
    ctypes.memmove(buf.data_ptr(), pixels.data_ptr(), pixels.numel())
    print(f"preview: {buf.shape[0]}x{buf.shape[1]}", flush=True)


def main() -> None:
    torch.manual_seed(0)
    gen = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh())
    for epoch in range(3):
        samples = gen(torch.randn(4, 16)).detach().view(4, 8, 8)
        writer = mp.get_context("fork").Process(target=write_preview, args=(samples, 8))
        writer.start()
        writer.join()
        if writer.exitcode != 0:
            raise RuntimeError(f"preview writer exited with code {writer.exitcode} at epoch {epoch}")
        print(f"epoch {epoch} preview written", flush=True)
