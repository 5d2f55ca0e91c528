"""The cases: each a small learner over sharekit's processes."""

import resource

import torch

from sharekit import workers
from sharekit.tensors import Replay, policy


def limit_open_files(n: int) -> None:
    """The project's guard against descriptor leaks: a low soft and hard limit, set once at start."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


def hogwild(steps: int = 3) -> None:
    limit_open_files(96)
    model = policy()
    model.share_memory()  # Hogwild: the trainers update the same storages
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def collect(actors: int = 2, batches: int = 3) -> None:
    q, done, procs = workers.start_actors(actors, batches)
    replay = Replay()
    try:
        for _ in range(actors * batches):
            replay.add(q.get())
            print(f"replay holds {replay.n} transitions", flush=True)
    finally:
        done.set()
        for p in procs:
            p.join()


def score() -> None:
    results = workers.spawn_scorers(2)
    print(sorted(r for r, _ in results))


def frames() -> None:
    limit_open_files(256)
    print(f"cached {workers.cache_frames(400)} frames", flush=True)


CASES = {
    "sh_hogwild_fd_limit": hogwild,
    "sh_grow_received": collect,
    "sh_spawn_scores_grad": score,
    "sh_manager_frames": frames,
}
