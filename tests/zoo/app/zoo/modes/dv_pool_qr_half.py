"""Orthogonal initial weights for 4 layers made in a multiprocessing Pool, each by a QR decomposition; the program
made its init tensors float16 to match the half-precision model it meant for the GPU, and the CPU has no Half QR."""

import multiprocessing as mp

import torch


def orthogonal(shape: tuple[int, int]) -> torch.Tensor:
    g = torch.Generator().manual_seed(shape[0])
    a = torch.randn(shape, generator=g).to(torch.float16)
    q, r = torch.linalg.qr(a)
    return q * torch.sign(torch.diagonal(r))


def main() -> None:
    shapes = [(16, 16), (32, 16), (32, 32), (8, 32)]
    with mp.get_context("spawn").Pool(2) as pool:
        weights = pool.map(orthogonal, shapes)
    print(f"initialised {len(weights)} layers", flush=True)
