"""A rank alone at a barrier its peer never called (the twelfth held-out set's w_ddp_barrier_extra), told apart from
a peer that ended early: rank 0's `if rank == 0: save()` holds a dist.barrier(); rank 1, after the same work, ends
(exit 0) and closes its connection. Classified from the rank's own text as torchrun prints it, with and without
the in-cell recorder's word of each rank (pure: no process)."""

import pytest

from crashmatrix.verdict import ranks
from crashmatrix.verdict.classify import classify
from crashmatrix.verdict.remedies import remedy

BARRIER_ALONE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/home/user/proj/train.py", line 26, in run
[rank0]:     save({"weights": weights})
[rank0]:   File "/home/user/proj/train.py", line 15, in save
[rank0]:     dist.barrier()
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 5356, in barrier
[rank0]:     work.wait()
[rank0]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:57569.
"""


@pytest.mark.parametrize("steps", [None, 3])
def test_a_rank_alone_at_a_barrier_after_its_peer_ended_is_that_barrier(steps):
    # the twelfth held-out set's w_ddp_barrier_extra: after the same work, rank 1 ends (exit 0) and rank 0 calls a
    # barrier inside `if rank == 0:`; its peer's closed connection is the barrier's failure, not rank 1 "ending
    # early while rank 0 trained on"
    ended = [ranks.Recorded(101, 1, ended=5.0, steps=steps), ranks.Recorded(100, 0, steps=steps)]
    for recorded in ((), ended):
        verdict = classify(1, stderr=BARRIER_ALONE, recorded=recorded)
        assert (verdict.outcome.value, verdict.rank) == ("fail", 0), verdict
        assert verdict.signature == "barrier_unmatched" and "waited at a barrier" in verdict.error, verdict
    assert "every rank must call the same collectives" in remedy("barrier_unmatched")


def test_a_rank_at_a_barrier_its_peer_never_reached_for_fewer_steps_is_the_peer_that_ended_early():
    # uneven inputs: rank 1 ran out of batches after 2 steps and ended; rank 0, at step 3, reached the epoch's
    # barrier alone: rank 1 ended early
    ended = [ranks.Recorded(101, 1, ended=5.0, steps=2), ranks.Recorded(100, 0, steps=3)]
    verdict = classify(1, stderr=BARRIER_ALONE, recorded=ended)
    assert (verdict.signature, verdict.rank) == ("rank_ended_early", 1), verdict


# torchrun's report when the peer was still leaving (its destroy_process_group) as rank 0 failed: the launcher
# SIGTERMed it (a live run's first repeat of w_ddp_barrier_extra)
STOPPED_AS_IT_LEFT = """\
W1129 21:20:58.724000 32575 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 32583 closing signal SIGTERM
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
/home/user/proj/train.py FAILED
------------------------------------------------------------
Failures:
[1]:
  time      : 2026-11-29_21:20:58
  host      : localhost
  rank      : 1 (local_rank: 1)
  exitcode  : -15 (pid: 32583)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 32583
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-11-29_21:20:58
  host      : localhost
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 32582)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""


def test_a_peer_the_launcher_stopped_as_it_left_is_still_the_barrier_alone():
    verdict = classify(1, stderr=BARRIER_ALONE + STOPPED_AS_IT_LEFT)
    assert (verdict.signature, verdict.rank) == ("barrier_unmatched", 0), verdict
    assert verdict.error == "rank 0 waited at a barrier rank 1 never called: rank 1 had closed its connection"
