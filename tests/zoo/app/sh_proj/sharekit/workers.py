"""The processes: rollout actors and a cache server, all through torch.multiprocessing."""

import torch
import torch.multiprocessing as mp

from sharekit.tensors import policy


def rollout_actor(q, done, seed: int, batches: int) -> None:
    """A forked actor: sends its transitions to the learner, and stays until it has them all."""
    g = torch.Generator().manual_seed(seed)
    for _ in range(batches):
        q.put(torch.randn(16, 8, generator=g))
    done.wait(30)


def start_actors(n: int, batches: int):
    q, done = mp.Queue(), mp.Event()
    procs = [mp.Process(target=rollout_actor, args=(q, done, s, batches)) for s in range(n)]
    for p in procs:
        p.start()
    return q, done, procs


def scoring_actor(rank: int, q) -> None:
    """A spawned actor: scores observations with its own policy copy and reports the scores."""
    net = policy(depth=2)
    obs = torch.randn(32, 8)
    scores = net(obs).softmax(-1)[:, 1]
    q.put((rank, scores))


def spawn_scorers(n: int) -> list:
    ctx = mp.get_context("spawn")
    q = ctx.SimpleQueue()
    mp.spawn(scoring_actor, args=(q,), nprocs=n, join=True)
    return [q.get() for _ in range(n)]


def cache_frames(n: int) -> int:
    """Keep decoded frames in a Manager list that every actor can read."""
    with mp.Manager() as manager:
        frames = manager.list()
        for i in range(n):
            frames.append(torch.full((4, 4), float(i)))
        return len(frames)
