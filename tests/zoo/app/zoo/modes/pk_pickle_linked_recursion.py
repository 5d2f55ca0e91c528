"""A replay buffer kept as a linked list of transitions (each node points at the next) is pickled whole for a
checkpoint; with 20000 nodes pickle recurses once per node, past Python's recursion limit."""

import os
import pickle
import tempfile

import torch  # noqa: F401  (the trainer imports it)


class Node:
    def __init__(self, obs: list[float], reward: float) -> None:
        self.obs = obs
        self.reward = reward
        self.next: Node | None = None


class ReplayBuffer:
    def __init__(self) -> None:
        self.head: Node | None = None
        self.size = 0

    def push(self, obs: list[float], reward: float) -> None:
        node = Node(obs, reward)
        node.next = self.head
        self.head = node
        self.size += 1


def main() -> None:
    buf = ReplayBuffer()
    for i in range(20000):
        buf.push([float(i), float(i) * 0.5], i * 0.1)
    print("buffer", buf.size, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "replay.pkl"), "wb") as f:
            pickle.dump(buf, f)
