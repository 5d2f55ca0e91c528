"""Which failures are a collective's timeout (verdict/peers.py): then the row names the rank waited for.

The gloo lines are torch 2.13's on this box (tests/zoo's torchrun_collective_timeout writes the first live;
tests/zoo/test_zoo.py asserts the row and the bug report). The NCCL watchdog's and the store's cannot be
produced here (no GPU; a 30-minute rendezvous): their text is PyTorch's own, as its issue tracker quotes it.
"""

import pytest

from crashmatrix.verdict import peers

TIMEOUTS = [
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] "
    "Timed out waiting 4000ms for send operation to complete",
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] "
    "Timed out waiting 5000ms for recv operation to complete",
    "what():  [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, "
    "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600023 milliseconds before timing out.",
    "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/2 clients joined.",
]
NOT_TIMEOUTS = [
    "RuntimeError: DataLoader timed out after 1 seconds",  # the loader's own timeout: one process, no peers
    "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:29500",
    "timed out after 60 s; rank 1 at ddp_hang.py:20 in main, outside any collective",  # crashmatrix's own timeout
]


@pytest.mark.parametrize("error", TIMEOUTS)
def test_a_collectives_timeout_is_one(error):
    assert peers.is_collective_timeout(error)
    assert not peers.names_straggler(error)  # until the peers' stacks named the rank outside any collective
    assert peers.names_straggler(f"{error}; rank 1 at train.py:9 in load, outside any collective; rank 0 waits")


@pytest.mark.parametrize("error", NOT_TIMEOUTS)
def test_other_timeouts_and_a_peers_loss_are_not(error):
    assert not peers.is_collective_timeout(error)
