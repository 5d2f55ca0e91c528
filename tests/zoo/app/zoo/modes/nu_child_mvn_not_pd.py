"""New latent codes sampled in a spawned child from a Gaussian fitted to the codes of 5 examples; the latent space has
8 dimensions, so the covariance is rank-deficient, not positive-definite. The main checks the child's exit code."""

import multiprocessing as mp

import torch
from torch.distributions import MultivariateNormal


def sample_codes(n: int) -> None:
    torch.manual_seed(0)
    codes = torch.randn(5, 8)
    prior = MultivariateNormal(codes.mean(0), covariance_matrix=torch.cov(codes.T))
    print(f"sampled {prior.sample((n,)).shape}", flush=True)


def main() -> None:
    ctx = mp.get_context("spawn")
    child = ctx.Process(target=sample_codes, args=(16,), name="sampler")
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"sampler exited with {child.exitcode}")
