"""Feature extraction in a forkserver Pool whose server preloads the feature module (to fork warm workers); the
module reads its thread count from FEATURE_THREADS at import, whose default "auto" int() refuses: the forkserver
dies while preloading, and the main's Pool cannot start a worker."""

import multiprocessing as mp

import torch


def spectrum(seed: int) -> float:
    from zoo import mp_feature_preload

    x = torch.randn(400, generator=torch.Generator().manual_seed(seed))
    return torch.fft.rfft(x * mp_feature_preload.WINDOW).abs().mean().item()


def main() -> None:
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["zoo.mp_feature_preload"])
    print("starting 2 forkserver workers", flush=True)
    with ctx.Pool(2) as pool:
        print(pool.map(spectrum, range(8)), flush=True)
