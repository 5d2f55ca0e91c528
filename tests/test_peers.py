"""Which failures are a collective's timeout (verdict/peers.py): then the row names the rank waited for.

The gloo lines are torch 2.13's on this box (tests/zoo's torchrun_collective_timeout writes the first live;
tests/zoo/test_zoo.py asserts the row and the bug report). The NCCL watchdog's and the store's cannot be
produced here (no GPU; a 30-minute rendezvous): their text is PyTorch's own, as its issue tracker quotes it.
"""

import json
import os
import sys

import pytest
from conftest import ROOT, crashmatrix, run_rows

from crashmatrix.verdict import classify, peers, ranks, remedies
from crashmatrix.verdict.ranks import Recorded

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


DATA = os.path.join(ROOT, "tests", "data", "collective-timeout")
TORCHRUN = {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}  # beside python


def test_a_rank_stopped_after_a_peer_timed_out_did_not_end_early():
    # Lightning ddp_spawn: spawn SIGTERMed rank 1 once rank 0's all_reduce timed out, and Lightning ended it 0
    with open(os.path.join(DATA, "lightning-ddp-spawn-inject.err")) as f:
        stderr = f.read()
    stopped = [Recorded(5741, 0, ended=100.0, steps=3), Recorded(5742, 1, ended=101.2, steps=2)]
    root = ranks.root_failure(stderr, stopped)
    assert (root.rank, root.ended_early) == (0, ""), root
    assert "Timed out waiting 4000ms for recv operation" in root.text
    # the same words where rank 1 had ended first: a rank that left early is waited out too
    left = [Recorded(5741, 0, ended=100.0, steps=3), Recorded(5742, 1, ended=95.0, steps=2)]
    assert ranks.root_failure(stderr, left).ended_early == "rank 1 ended (exit 0) after 2 steps; rank 0 was at step 3"


@pytest.mark.parametrize(
    ("recorded", "timed_out"),
    [
        # rank 0 timed out first and said so first; rank 1's barrier then lost its peer before its own 4 s were out
        ("ddp-desync-peer-closed.err", 0),
        # rank 1 timed out first, but rank 0 said its loss of rank 1 before rank 1's own traceback was out
        ("ddp-desync-peer-closed-first.err", 1),
    ],
)
def test_a_rank_that_lost_its_peer_in_another_collective_is_named_where_it_waited(tmp_path, recorded, timed_out):
    # tests/apps/ddp_desync.py on the loaded box: one rank entered its collective later than the other, which
    # timed out and ended first; the collective's timeout is the row's, and the peer that lost it is placed too
    with open(os.path.join(DATA, recorded)) as f:
        stderr = f.read()
    verdict = classify.classify(1, stderr=stderr)
    assert verdict.rank == timed_out and "Timed out waiting 4000ms for recv operation" in verdict.error, verdict
    told, where = peers.at_collective_timeout(verdict, "", str(tmp_path), stderr)
    assert told.error.endswith(
        "Timed out waiting 4000ms for recv operation to complete; every rank waits in a collective; "
        "rank 0 waits in all_reduce (ddp_desync.py:24); rank 1 waits in barrier (ddp_desync.py:22)"
    ), told.error
    # each rank's program frame as every `where` names one, after the collective it waits in
    assert where == (
        "rank 0 in all_reduce at ddp_desync.py:24 in end_of_epoch; rank 1 in barrier at ddp_desync.py:22 in end_of_epoch"
    )


def test_a_peer_asked_as_it_ended_is_placed_by_its_own_traceback(tmp_path):
    # tests/apps/ddp_desync.py in a fresh clone's make test: both ranks timed out, each in its own collective,
    # and printed it; rank 0's was first. Asked for its stacks then, rank 1 was already past its Python code
    # (faulthandler: `Garbage-collecting`, `<no Python frame>`), and the row said `rank 1 at an unknown place,
    # outside any collective`. Its own traceback says where it waited.
    from crashmatrix.incell.rank_report import rank_dir
    from crashmatrix.incell.stackdump import dump_dir

    with open(os.path.join(DATA, "ddp-desync-both-timed-out.err")) as f:
        stderr = f.read()
    os.makedirs(rank_dir(str(tmp_path)))
    with open(os.path.join(rank_dir(str(tmp_path)), "23675.json"), "w") as f:
        json.dump({"pid": 23675, "rank": 1}, f)
    os.makedirs(dump_dir(str(tmp_path)))
    with open(os.path.join(dump_dir(str(tmp_path)), "23675.txt"), "w") as f:
        f.write(
            "Current thread 0x00007ff950c1bb80 (most recent call first):\n  Garbage-collecting\n  <no Python frame>\n"
        )
    verdict = classify.classify(1, stderr=stderr)
    assert verdict.rank == 0
    told, where = peers.at_collective_timeout(verdict, "", str(tmp_path), stderr)
    assert told.error.endswith(
        "every rank waits in a collective; rank 0 waits in all_reduce (ddp_desync.py:24); rank 1 waits in barrier "
        "(ddp_desync.py:22)"
    ), told.error
    assert where == (
        "rank 0 in all_reduce at ddp_desync.py:24 in end_of_epoch; rank 1 in barrier at ddp_desync.py:22 in end_of_epoch"
    )


def test_a_peers_loss_outside_any_collective_names_no_collective(tmp_path):
    with open(os.path.join(DATA, "ddp-desync-peer-closed.err")) as f:
        stderr = f.read()
    verdict = classify.classify(1, stderr=stderr)
    # rank 1's loss of its peer raised outside any collective (the program's own socket, say): no place is claimed
    rank1 = stderr.index("[rank1]: Traceback")
    closed = next(line for line in stderr.splitlines() if "Connection closed by peer" in line)
    lost = stderr[:rank1] + '[rank1]: Traceback (most recent call last):\n[rank1]:   File "{app}/ddp_desync.py", '
    lost += f"line 22, in end_of_epoch\n[rank1]:     fetch()\n{closed}\n"
    assert peers.at_collective_timeout(verdict, "", str(tmp_path), lost) == (verdict, "")


@pytest.mark.slow
def test_ranks_a_launcher_leaves_running_are_asked_where_they_are(tmp_path):
    """tests/apps/ddp_left_running.py (its docstring has the truth): rank 0 is the main process, as Lightning's
    ddp makes it; rank 1, which it started, is still running when rank 0's collective times out."""
    (tmp_path / "m.yaml").write_text(
        f"name: left\ncommand: [python, {os.path.join(ROOT, 'tests', 'apps', 'ddp_left_running.py')}]\n"
        "inject: true\naxes:\n  x: [1]\ntimeout: 120\n"
    )
    (row,) = run_rows("m.yaml", tmp_path)
    assert (row["outcome"], row["rank"], row["leftovers"]) == ("fail", "1", "1"), row
    assert row["error"].endswith(
        "Timed out waiting 4000ms for recv operation to complete; rank 1 at ddp_left_running.py:29 in fetch_shard, "
        "outside any collective; rank 0 waits in all_reduce (ddp_left_running.py:39)"
    ), row["error"]
    # where names the program's frames from the app's root (the checkout); the error by their file alone
    assert row["where"] == (
        "rank 1 tests/apps/ddp_left_running.py:29 in fetch_shard; "
        "rank 0 in all_reduce at tests/apps/ddp_left_running.py:39 in train"
    )
    stacks = (tmp_path / "run" / row["log_dir"] / "stacks.txt").read_text()
    assert stacks.startswith("=== pid ") and "(rank 1), once the job had failed" in stacks.splitlines()[0], stacks


@pytest.mark.slow
def test_ranks_in_different_collectives_are_each_named_where_they_wait(tmp_path):
    """tests/apps/ddp_desync.py (its docstring has the truth): rank 1 in barrier, rank 0 in all_reduce; both
    time out, either first, or on a loaded box the one that entered its collective later loses its peer first
    (its place is told all the same: tests/data/collective-timeout/ddp-desync-peer-closed.err)."""
    app = os.path.join(ROOT, "tests", "apps", "ddp_desync.py")
    (tmp_path / "m.yaml").write_text(
        f"name: desync\ncommand: [torchrun, --nproc_per_node=2, {app}]\ninject: true\naxes:\n  x: [1]\ntimeout: 120\n"
    )
    (row,) = run_rows("m.yaml", tmp_path, env=TORCHRUN)
    assert (row["outcome"], row["rank"] in ("0", "1")) == ("fail", True), row
    assert row["error"].endswith(
        "Timed out waiting 4000ms for recv operation to complete; every rank waits in a collective; "
        "rank 0 waits in all_reduce (ddp_desync.py:24); rank 1 waits in barrier (ddp_desync.py:22)"
    ), row["error"]
    assert row["where"] == (
        "rank 0 in all_reduce at tests/apps/ddp_desync.py:24 in end_of_epoch; "
        "rank 1 in barrier at tests/apps/ddp_desync.py:22 in end_of_epoch"
    )
    assert row["signature"].endswith(
        ": rank N in all_reduce at tests/apps/ddp_desync.py:N in end_of_epoch; "
        "rank N in barrier at tests/apps/ddp_desync.py:N in end_of_epoch"
    )
    resolved = crashmatrix("resolve", tmp_path / "run", cwd=tmp_path)
    assert resolved.returncode == 0, resolved.stderr
    (issue,) = (tmp_path / "run" / "repro").glob("*/ISSUE.md")
    text = issue.read_text()
    assert "every rank waited in one: in different collectives" in text and "For PyTorch's tracker" not in text
    assert (
        "What fixes it: every rank must call the same collectives" in (tmp_path / "run" / "resolution.md").read_text()
    )


@pytest.mark.parametrize(
    ("signature", "fix"),
    [
        # the zoo's torchrun_collective_timeout and tests/apps/ddp_desync.py, as their rows sign them
        (
            "RuntimeError: Timed out waiting 4000ms for send operation to complete: "
            "rank N zoo/ddp.py:N in wait_for_shard; rank N in DDP forward at zoo/ddp.py:N in train",
            remedies.STRAGGLER,
        ),
        (
            "RuntimeError: Timed out waiting 4000ms for recv operation to complete: "
            "rank N in all_reduce at tests/apps/ddp_desync.py:N in end_of_epoch; "
            "rank N in barrier at tests/apps/ddp_desync.py:N in end_of_epoch",
            remedies.DESYNC,
        ),
        (
            "RuntimeError: Timed out waiting 4000ms for recv operation to complete: "
            "rank N waits in DataLoader _get_data (dataloader.py:N); rank N in all_reduce at train.py:N in main",
            remedies.STRAGGLER,
        ),
        ("RuntimeError: Timed out waiting 4000ms for recv operation to complete", ""),  # no peer told
        # a hang no timeout ended (held-out set 3's k_ddp_collective_unmatched): each rank in another collective
        (
            "hang in barrier at zoo/modes/k_ddp_collective_unmatched.py:run; "
            "all_reduce at zoo/modes/k_ddp_collective_unmatched.py:log_metric",
            remedies.DESYNC,
        ),
        ("hang in zoo/ddp.py:wait_for_shard; DDP forward at zoo/ddp.py:train", ""),  # a rank outside: a straggler
        ("hang in all_reduce at train.py:main", ""),  # every rank in one place: no pairing to fix
        ("FloatingPointError: loss is nan at step N on rank N", ""),
    ],
)
def test_what_fixes_a_collective_timeout_or_a_hang_follows_where_the_ranks_were(signature, fix):
    assert remedies.remedy(signature) == fix


def test_ranks_that_wait_for_a_message_are_not_said_to_wait_in_a_collective():
    # the sixth held-out set's p_hang_ddp_recv: rank 1 in dist.recv for a send rank 0 never makes, rank 0 in barrier
    from crashmatrix.verdict.straggler import RankState, summarize

    recv = RankState(1, "recv", "zoo/modes/p_hang_ddp_recv.py:21 in run", "")
    barrier = RankState(0, "barrier", "zoo/modes/p_hang_ddp_recv.py:22 in run", "")
    clause, where = summarize([barrier, recv], [])
    assert clause.startswith("every rank waits in a collective or for a peer's message; rank 0 waits in barrier"), (
        clause
    )
    assert (
        where
        == "rank 0 in barrier at zoo/modes/p_hang_ddp_recv.py:22 in run; rank 1 in recv at zoo/modes/p_hang_ddp_recv.py:21 in run"
    )
    all_reduce = RankState(1, "all_reduce", "zoo/modes/p_hang_ddp_recv.py:21 in run", "")
    assert summarize([barrier, all_reduce], [])[0].startswith("every rank waits in a collective; "), clause


STRAGGLER_CELL = os.path.join(ROOT, "tests", "data", "collective-timeout", "straggler-cell")


def test_diagnose_of_the_cell_names_the_rank_the_others_waited_for_as_its_run_did(tmp_path):
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    with open(os.path.join(STRAGGLER_CELL, "result.json")) as f:
        run = json.load(f)
    told = diagnose(read_logs([STRAGGLER_CELL]))
    row = told.row
    assert (row["where"], row["signature"], row["rank"]) == (run["where"], run["signature"], str(run["rank"])), row
    assert row["where"].startswith("rank 1 h10_collective_timeout.py:3 in slow_download"), row
    assert not any(said.startswith("where the rank the others waited for was") for said in told.cannot_tell)
    # the log alone, as a user has it: only the rank that timed out, and that the log cannot tell the other's place
    alone = tmp_path / "job.log"
    alone.write_text(open(os.path.join(STRAGGLER_CELL, "stderr.log")).read())
    told = diagnose(read_logs([str(alone)]))
    assert told.row["rank"] == "0" and "slow_download" not in told.row["where"], told.row
    assert any(said.startswith("where the rank the others waited for was") for said in told.cannot_tell)
