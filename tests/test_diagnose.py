"""`crashmatrix diagnose LOG...` (issue 49, part 1): the verdict a cell would get, from the text alone, by the
same rules. The recorded runs' agreement (tests/diagnose_agreement.py, docs/diagnose.md's table), the formats
real tools write, and bad input of every kind (exit 2, or "no failure found", never a traceback).

Cost: classification of recorded text (about 4 CPU-s for the 172 cells); live, 4 stdlib cell runs (about
2 CPU-s). torchrun's --log-dir is run live in tests/test_run_command.py, beside the cell it gives."""

import json
import os
import random
import shutil

import pytest
from conftest import ROOT, crashmatrix
from diagnose_agreement import FIELDS, SHARED_RUNS, agreement

from crashmatrix.errors import BadInput
from crashmatrix.resolve import log_text
from crashmatrix.resolve.diagnose import diagnose
from crashmatrix.resolve.log_text import read_logs

SINGLE = os.path.join(ROOT, "tests/zoo/recorded/reported-before/single/cells")
SEGV = os.path.join(SINGLE, "07f3229b54-r0", "stderr.log")  # a sparse op's SIGSEGV in libtorch_cpu
EMPTY_DATASET = os.path.join(SINGLE, "0021c384fd-r0", "stderr.log")


def _row(*paths):
    return diagnose(read_logs(list(paths))).row


def test_every_recorded_cell_diagnosed_from_its_text_agrees_with_its_row():
    agree, total, run_only, differ = agreement()
    assert not differ, "\n".join(map(repr, differ[:20]))
    assert total["outcome"] >= 140 and total["where"] >= 100
    if not SHARED_RUNS:  # docs/diagnose.md's table counts ../shared/gpu-runs too
        pytest.skip("agreed; the table's counts include ../shared/gpu-runs, which this checkout lacks")
    table = open(os.path.join(ROOT, "docs/diagnose.md"), encoding="utf-8").read()
    for field in FIELDS:  # the table in the docs is this test's
        assert f"| {field} | {agree[field]:,} of {total[field]:,} | {run_only[field]:,} |" in table, field
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()  # and so is the README's, in short
    assert "| " + " | ".join(f"{agree[f]:,} of {total[f]:,}" for f in FIELDS) + " |" in readme


def test_json_gives_the_row_with_results_csv_keys():
    out = crashmatrix("diagnose", SEGV, "--json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout)
    assert {"outcome", "signal", "exit_code", "error", "signature", "where", "rank"} <= set(row)
    assert (row["outcome"], row["signal"], row["exit_code"]) == ("crash", "SIGSEGV", "")
    assert row["where"].startswith("libtorch_cpu.so") and "PyTorch's tracker" in row["whose"]
    assert any("exit status" in said for said in row["cannot_tell"])


def test_colours_and_timestamps_on_every_line_read_as_the_plain_log(tmp_path):
    plain_row = _row(EMPTY_DATASET)
    lines = open(EMPTY_DATASET, encoding="utf-8").read().splitlines()
    dressed = tmp_path / "ci.log"
    dressed.write_text(
        "".join(f"2026-11-29T01:02:{i % 60:02d}.1234567Z \x1b[31m{line}\x1b[0m\n" for i, line in enumerate(lines))
    )
    assert _row(str(dressed)) == plain_row
    out = crashmatrix("diagnose", "-", cwd=ROOT, input=dressed.read_text())
    assert out.returncode == 0 and out.stdout.startswith("fail"), out.stdout + out.stderr


def test_slurm_says_which_task_died_and_the_oom_kill(tmp_path):
    log = tmp_path / "slurm-4242.out"
    log.write_text(
        "step 10 loss 0.3\nsrun: error: node7: task 3: Segmentation fault (core dumped)\n"
        "srun: error: node7: tasks 0-2: Terminated\nsrun: Force Terminated StepId=4242.0\n"
    )
    row = _row(str(log))
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGSEGV", "3")
    log.write_text(
        "epoch 1\nslurmstepd: error: Detected 1 oom_kill event in StepId=4243.batch. Some of the step tasks have"
        " been OOM Killed.\n"
    )
    row = _row(str(log))
    assert (row["outcome"], row["signature"]) == ("oom", "slurm_oom_kill")


def test_a_log_without_a_failure_is_no_failure_found_and_bad_input_exits_2(tmp_path):
    ok = tmp_path / "ok.log"
    ok.write_text("epoch 1 loss 0.5\nepoch 2 loss 0.4\ndone\n")
    out = crashmatrix("diagnose", str(ok), cwd=ROOT)
    assert out.returncode == 0 and out.stdout.startswith("no failure found"), out.stdout
    assert "hang" in out.stdout  # what the log cannot tell
    binary, empty = tmp_path / "model.pt", tmp_path / "empty.log"
    binary.write_bytes(bytes(range(256)) * 64)
    empty.write_text("")
    for bad, said in ((binary, "binary"), (empty, "empty"), (tmp_path / "gone.log", "no such file")):
        out = crashmatrix("diagnose", str(bad), cwd=ROOT)
        assert out.returncode == 2 and said in out.stderr and str(bad) in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


RECORDED16 = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout16")


def test_exceptions_python_went_on_after_are_told_as_such():
    # the sixteenth held-out set's two passes, recorded: a cache's __del__ at exit (`Exception ignored in:`) is
    # no failure; a traceback the program logged (`logger.exception`) and went on after still reads as one,
    # with what only the exit status would settle
    ignored = diagnose(read_logs([os.path.join(RECORDED16, "single", "cells", "29768fbc2c-r0", "stderr.log")]))
    assert not ignored.found
    logged = diagnose(read_logs([os.path.join(RECORDED16, "app", "cells", "82fe8f3feb-r0", "stderr.log")]))
    assert logged.found and logged.row["error"] == "TypeError: Object of type float32 is not JSON serializable"
    (handled,) = [said for said in logged.cannot_tell if said.startswith("whether the program handled")]
    assert "`2026-11-30 01:34:20,573 ERROR bfit.train: could not write the run summary`" in handled
    # logged early, then a different uncaught failure (b_logged_then_leaf_inplace): the last traceback is
    # Python's own as the program ended, nothing to settle
    fatal = diagnose(read_logs([os.path.join(RECORDED16, "app", "cells", "0bb6780141-r0", "stderr.log")]))
    assert fatal.found and fatal.row["error"].startswith("RuntimeError: a leaf Variable that requires grad")
    assert not [said for said in fatal.cannot_tell if said.startswith("whether the program handled")]


def _fuzzed(rng: random.Random, texts: list[bytes]) -> bytes:
    text = rng.choice(texts)
    kind = rng.randrange(4)
    if kind == 0:  # truncated anywhere, a multi-byte character or a traceback cut in two
        return text[: rng.randrange(len(text) + 1)]
    if kind == 1:  # spliced with random bytes
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.randbytes(rng.randrange(1, 400)) + text[at:]
    if kind == 2:  # lines shuffled
        lines = text.split(b"\n")
        rng.shuffle(lines)
        return b"\n".join(lines)
    return rng.randbytes(rng.randrange(0, 3000))


def test_fuzzed_logs_give_no_traceback(tmp_path, monkeypatch):
    rng = random.Random(49)
    texts = [open(os.path.join(SINGLE, c, "stderr.log"), "rb").read() for c in sorted(os.listdir(SINGLE))[:40]]
    monkeypatch.setattr(log_text, "HEAD", 4096)  # the bounded reading too, on small files
    monkeypatch.setattr(log_text, "TAIL", 8192)
    verdicts = 0
    for i in range(300):
        path = tmp_path / f"{i}.log"
        path.write_bytes(_fuzzed(rng, texts))
        try:
            verdicts += diagnose(read_logs([str(path)])).found
        except BadInput:
            pass
    assert verdicts > 100


def test_a_huge_log_is_read_in_bounded_memory_with_its_failure_from_the_middle(tmp_path, monkeypatch):
    monkeypatch.setattr(log_text, "HEAD", 64 * 1024)
    monkeypatch.setattr(log_text, "TAIL", 64 * 1024)
    monkeypatch.setattr(log_text, "MIDDLE_CAP", 16 * 1024)
    path = tmp_path / "huge.log"
    noise = b"".join(b"step %d loss 0.%d\n" % (i, i % 10) for i in range(20000))
    with open(path, "wb") as f:
        f.write(noise)
        f.write(b"srun: error: node1: task 2: Bus error\n")
        for _ in range(3):
            f.write(noise)
    log = read_logs([str(path)])
    assert len(log.text) < 200 * 1024 and log.left_out > 1_000_000
    row = diagnose(log).row
    assert (row["outcome"], row["signal"], row["rank"]) == ("rank_crash", "SIGBUS", "2")
    # a line without end (a progress bar redrawn with \r, binary junk) is skipped, not held to its end
    monkeypatch.setattr(log_text, "_LONGEST_LINE", 32 * 1024)
    endless = tmp_path / "endless.log"
    endless.write_bytes(b"ValueError: the head\n" + b"=" * 3_000_000)
    log = read_logs([str(endless)])
    assert len(log.text) < 200 * 1024 and diagnose(log).row["error"] == "ValueError: the head"


@pytest.mark.slow  # the proposed matrix run for real
def test_diagnose_proposes_the_matrix_that_finds_the_planted_cause(tmp_path):
    shutil.copy(os.path.join(ROOT, "tests/apps/no_main_guard.py"), tmp_path / "app.py")
    # the failing job's log: the program under spawn, where it has no main guard
    failed = crashmatrix(
        "run", "-a", "start_method=spawn", "--out", tmp_path / "job", "--", "python", "app.py", cwd=tmp_path
    )
    assert failed.returncode == 0, failed.stderr
    (cell,) = os.listdir(tmp_path / "job" / "cells")
    log = tmp_path / "job" / "cells" / cell / "stderr.log"
    out = crashmatrix("diagnose", log, "--matrix", "found.yaml", "--command", "python app.py", cwd=tmp_path)
    assert out.returncode == 0 and "run:  crashmatrix run found.yaml" in out.stdout, out.stdout + out.stderr
    again = crashmatrix("diagnose", log, "--matrix", "found.yaml", "--command", "python app.py", cwd=tmp_path)
    assert again.returncode == 2 and "never writes over" in again.stderr  # the file it wrote stays
    ran = crashmatrix("run", "found.yaml", "--out", tmp_path / "found", cwd=tmp_path)  # as written
    assert ran.returncode == 0, ran.stderr
    explained = json.loads(crashmatrix("explain", tmp_path / "found", "--json", cwd=tmp_path).stdout)
    found = {e["conditions"]["start_method"] for e in explained if e.get("signature") == "missing_main_guard"}
    assert found == {"spawn", "forkserver"}  # and fork passes: the planted cause, named
    lone = crashmatrix("diagnose", log, "--command", "python app.py", cwd=tmp_path)
    assert lone.returncode == 2 and "--matrix" in lone.stderr


NCCL_WATCHDOG = """\
[rank0]:[E1129 01:00:00.000000 123 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation \
timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, Timeout(ms)=600000) ran for 600012 \
milliseconds before timing out.
terminate called after throwing an instance of 'c10::DistBackendError'
  what():  [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: [Rank 0] \
Watchdog caught collective operation timeout
E1129 01:00:02.000000 100 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 0 \
(pid: 123) of binary: /usr/bin/python
"""


def test_an_nccl_watchdog_timeout_says_what_only_the_peers_stacks_tell(tmp_path):
    log = tmp_path / "nccl.log"
    log.write_text(NCCL_WATCHDOG)
    found = diagnose(read_logs([str(log)]))
    assert (found.row["outcome"], found.row["signature"]) == ("cuda_error", "nccl_timeout")
    assert any("waited for" in said for said in found.cannot_tell)


def test_a_workers_bus_error_proposes_a_larger_dev_shm_beside_the_loader_knobs():
    # a worker's bus error is signed as any worker's death by a signal (its /dev/shm is torch's guess, and as often
    # a mapped file cut short); the proposal still sweeps /dev/shm's size for it, and only for it
    from crashmatrix.resolve.propose import suspects

    bus = suspects({"signature": "worker_signal in data.py:__getitem__", "signal": "SIGBUS", "outcome": "worker_crash"})
    segv = suspects({"signature": "worker_signal in data.py:__getitem__", "signal": "SIGSEGV"})
    assert "shm_mb=64,4096" in bus and "num_workers=0,2" in bus
    assert "shm_mb=64,4096" not in segv and "num_workers=0,2" in segv
