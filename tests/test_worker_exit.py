"""A DataLoader worker that ends itself with a status (issue 52, item 5): one outcome, one signature, the program's
place, the program's fix.

The truth, from running tests/apps/worker_exit/loader.py alone (torch 2.13, 2 workers, 4 runs by fork and 4 by
spawn, each exit 1): worker 1 prints `decoder: sample 37 is corrupt, giving up` and calls `sys.exit(2)` at
loader.py:22 in decode_failed, without a traceback. What the main process then says varies with the race: most
often torch's SIGCHLD handler's `RuntimeError: DataLoader worker (pid N) exited unexpectedly with exit code 2`
(printed while the main unpickles the gone worker's batch in rebuild_storage_fd), and under spawn, in 3 runs of
4 under crashmatrix, only `FileNotFoundError: [Errno 2] No such file or directory` from that worker's file-
descriptor sharer (multiprocessing/resource_sharer.py), which read alone looks like a missing file.
"""

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import exit_record, forensics
from crashmatrix.verdict.classify import classify, signed_by_place
from crashmatrix.verdict.evidence import Evidence
from crashmatrix.verdict.remedies import FILE_MISSING, remedy

APP = os.path.join(ROOT, "tests", "apps", "worker_exit", "loader.py")
DATA = os.path.join(ROOT, "tests", "data", "worker-exit")
MATRIX = """\
name: worker-exit
command: [python, {app}]
inject: true
axes:
  start_method: [fork, spawn]
  num_workers: [2]
repeats: 2
timeout: 120
"""
PLACE = "tests/apps/worker_exit/loader.py:22 in decode_failed"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("worker-exit")
    (tmp / "m.yaml").write_text(MATRIX.format(app=APP))
    ran = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", tmp / "run", cwd=tmp)
    assert ran.returncode == 0, ran.stderr
    return tmp / "run"


@pytest.mark.slow  # real DataLoader workers, fork and spawn
def test_under_inject_one_outcome_one_signature_the_workers_own_line(run):
    rows = rows_of(run)
    assert len(rows) == 4
    assert {(r["outcome"], r["signal"]) for r in rows} == {("worker_crash", "")}
    assert {r["signature"] for r in rows} == {"worker_exited in tests/apps/worker_exit/loader.py:decode_failed"}
    assert {r["where"] for r in rows} == {PLACE}
    for r in rows:  # the worker's end first, then what the main said of it, whichever it was this time
        assert f"ended itself with exit status 2 at {PLACE}; the main then said: " in r["error"], r["error"]


@pytest.mark.slow
def test_its_report_is_the_programs_with_the_fix(run):
    resolved = crashmatrix("resolve", run, cwd=run)
    assert resolved.returncode == 0, resolved.stderr
    with open(run / "resolution.json") as f:
        (bundle,) = json.load(f)["repro"]
    issue = (run / bundle["dir"] / "ISSUE.md").read_text()
    assert f"A failure of a known kind (it ended in {PLACE}), whose fix is the program's" in issue
    assert "make it raise an exception instead" in issue and "tracker" not in issue


def _recorded(name: str) -> str:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read().replace("{root}", ROOT).replace("{stdlib}", os.path.dirname(os.__file__))


def test_a_gone_workers_file_descriptor_sharer_is_a_lost_worker_not_a_missing_file():
    verdict = classify(1, stderr=_recorded("spawn-file-not-found.err"))
    assert (verdict.outcome, verdict.signature) == (Outcome.WORKER_CRASH, "worker_lost")
    assert remedy(verdict.signature) != FILE_MISSING


def test_without_inject_the_place_is_the_programs_line_that_heard_of_it():
    stderr = _recorded("fork-alone.err")
    verdict = classify(1, stderr=stderr)
    assert (verdict.outcome, verdict.signature) == (Outcome.WORKER_CRASH, "worker_exited")
    where = forensics._where_raised(verdict, stderr)
    assert where == (
        "the main process heard of it in rebuild_storage_fd (reductions.py:538), at "
        "tests/apps/worker_exit/loader.py:27 in main"
    )


# The zoo's r_worker_sys_exit (the same worker's sys.exit(2)) under inject, real stderrs: now and then the main
# cannot print its traceback to the end, because sys.stderr is gone at shutdown, and CPython dumps the exception
# object instead (`object address  : 0x...`, ..., `lost sys.stderr`): cut after its outer frames (1 run in 6
# of the held-out set's, and a fresh clone's `make test`), or glued to a frame's last line (2 runs in 40).
# The row said `object address : 0x…` and `fail`.
@pytest.mark.parametrize("name", ["sys-exit-lost-stderr-cut.err", "sys-exit-lost-stderr-glued.err"])
def test_a_traceback_whose_stderr_was_lost_says_its_exception(name):
    verdict = classify(1, stderr=_recorded(name))
    assert verdict.error == "ConnectionResetError: [Errno 104] Connection reset by peer"
    assert "object" not in verdict.signature


# The same cut under fork in a fresh clone's `make test` (tests/apps/worker_exit/loader.py, 1 repeat of 2) ended
# in the dump of a FileNotFoundError, the gone worker's descriptor sharer's, whose frames the cut took away: the
# row said `fail`. Its text was not kept; it is the cut text above with that dump, as CPython writes one.
FILE_SHARER_DUMP = (
    "object address  : 0x7f761db96040\nobject refcount : 2\nobject type     : 0x7f763fa50f20\n"
    "object type name: FileNotFoundError\nobject repr     : FileNotFoundError(2, 'No such file or directory')\n"
    "lost sys.stderr\n"
)


def _ended_itself(tmp_path, stderr: str):
    """The engine's verdict on stderr, beside a real recorded end: the cell's multiprocessing child (a DataLoader
    worker's kind) calls sys.exit(2) at child.py:6 under the in-cell recorder."""
    from crashmatrix.verdict import exit_record

    cell = tmp_path / "cell"
    cell.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    program = "from crashmatrix.incell import last_exit\nlast_exit.install()\nimport multiprocessing, sys\n\n"
    program += "def decode():\n    sys.exit(2)\n\n\nif __name__ == '__main__':\n"
    (tmp_path / "child.py").write_text(
        program + "    multiprocessing.get_context('fork').Process(target=decode).start()\n"
    )
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    assert subprocess.run([sys.executable, str(tmp_path / "child.py")], env=env, timeout=60).returncode == 0
    verdict, where = forensics.refine(classify(1, stderr=stderr), Evidence(pid=1, started=0.0, stderr=stderr))
    return exit_record.worker_ended_itself(verdict, where, str(cell), None, stderr)


@pytest.mark.parametrize("ending", ["connection", "file sharer"])
def test_a_workers_own_exit_is_the_failure_when_the_mains_traceback_was_cut_short(tmp_path, ending):
    stderr = _recorded("sys-exit-lost-stderr-cut.err")
    said = "ConnectionResetError: [Errno 104] Connection reset by peer"
    if ending == "file sharer":
        stderr = stderr[: stderr.index("object address")] + FILE_SHARER_DUMP
        said = "FileNotFoundError: [Errno 2] No such file or directory"
    verdict, where = _ended_itself(tmp_path, stderr)
    assert (verdict.outcome, verdict.signature, where) == (
        Outcome.WORKER_CRASH,
        "worker_exited in child.py:decode",
        "child.py:6 in decode",
    )
    assert verdict.error.endswith(f"the main then said: {said}")


def test_a_missing_file_of_the_mains_own_is_not_a_workers_consequence(tmp_path):
    # the same recorded worker end, but the main's own FileNotFoundError, its traceback whole (no loader frame)
    stderr = (
        'Traceback (most recent call last):\n  File "/app/main.py", line 21, in <module>\n    open("data/train.csv")\n'
        "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.csv'\n"
    )
    verdict, _ = _ended_itself(tmp_path, stderr)
    assert verdict.outcome is Outcome.FAIL and verdict.signature.startswith("FileNotFoundError")


def test_a_child_that_ends_itself_with_status_0_is_placed_and_one_that_returns_is_not(tmp_path):
    # the sixth held-out set's p_worker_os_exit: a DataLoader worker's decoder calls os._exit(0) on a record it
    # cannot read, and the main says only `exited unexpectedly`; an exit 0 of the main itself places nothing
    from crashmatrix.verdict import exit_record

    cell = tmp_path / "cell"
    cell.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "child.py").write_text(
        "from crashmatrix.incell import last_exit\nlast_exit.install()\n"
        "import multiprocessing as mp, os, sys\n\n"
        "def decode():\n    os._exit(0)\n\n"
        "def fine():\n    return None\n\n"
        "if __name__ == '__main__':\n"
        "    for method in ('fork', 'spawn'):\n"
        "        for target in (decode, fine):\n"
        "            p = mp.get_context(method).Process(target=target)\n"
        "            p.start(); p.join(); print(p.pid, p.exitcode)\n"
        "    sys.exit(0)\n"
    )
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    done = subprocess.run([sys.executable, "child.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
    (fork_decode, _), (_, _), (spawn_decode, _), (_, _) = [map(int, line.split()) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    ends = exit_record.children_ends(str(cell), None)
    assert sorted(ends) == sorted([(fork_decode, 0, "child.py:6 in decode"), (spawn_decode, 0, "child.py:6 in decode")])


@pytest.mark.slow  # real process pool workers, under inject
def test_a_pool_workers_sys_exit_the_main_raised_again_is_placed_at_the_workers_call(tmp_path):
    # The thirty-third held-out set's hp_pool_trial_sys_exit (HELDOUT33.md), run alone: trial 1's loss diverges and
    # its ProcessPoolExecutor worker calls `sys.exit("trial 1: loss is inf at step N, stopping")` at :25 in
    # objective; concurrent.futures sends the SystemExit back, the main's future.result() at :36 raises it again,
    # and Python prints only its message, exit 1. Before, the run gave no place: no traceback names either line.
    app = os.path.join(ROOT, "tests", "zoo", "app", "main.py")
    (tmp_path / "m.yaml").write_text(
        f"name: pool-exit\ncommand: [python, {app}]\ninject: true\naxes: {{mode: [hp_pool_trial_sys_exit]}}\n"
    )
    ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["exit_code"]) == ("fail", "1"), row
    assert row["where"] == "zoo/modes/hp_pool_trial_sys_exit.py:25 in objective", row
    assert (
        row["signature"] == "trial N: loss is inf at step N, stopping in zoo/modes/hp_pool_trial_sys_exit.py:objective"
    )


def _planted_exit(tmp_path, frames: str) -> str:
    stacks = tmp_path / ".stacks"
    stacks.mkdir(parents=True)
    (stacks / "exit-4242.txt").write_text(f"Traceback (most recent call last):\n{frames}SystemExit: 1\n")
    return str(tmp_path)


def test_only_a_pool_workers_own_exit_is_the_mains_place(tmp_path):
    # From a review of the rule: a trial child that ended itself with sys.exit(1), which the main tolerated, is
    # no place for the main's own `raise SystemExit(...)` with the same status (not recorded: no call to wrap)
    trial = '  File "/app/tune/trial.py", line 12, in run_trial\n    sys.exit(1)\n'
    assert exit_record.a_childs_exit(_planted_exit(tmp_path / "trial", trial), 1, 1) == ""
    pool = (
        '  File "/usr/lib/python3.11/concurrent/futures/process.py", line 256, in _process_worker\n'
        "    r = call_item.fn(*call_item.args, **call_item.kwargs)\n" + trial
    )
    assert exit_record.a_childs_exit(_planted_exit(tmp_path / "pool", pool), 1, 1).endswith("in run_trial")


@pytest.mark.slow  # a real DataLoader worker killed by SIGKILL, under inject and not
def test_a_worker_the_loader_says_exited_is_told_by_the_signal_recorded_under_inject(tmp_path):
    # The loader's `exited unexpectedly` alone (its main waited on the queue as the worker died, or the program
    # printed only the last message): a log cannot tell why; under inject the worker's own kill, and its parent's
    # reading of its status, were recorded. The zoo's loader_worker_kill met the same words once on a loaded box.
    app = os.path.join(ROOT, "tests", "apps", "worker_killed_summary.py")
    rows = {}
    for inject in ("true", "false"):
        (tmp_path / f"{inject}.yaml").write_text(
            f"name: killed-{inject}\ncommand: [python, {app}]\ninject: {inject}\naxes: {{x: [1]}}\n"
        )
        ran = crashmatrix("run", tmp_path / f"{inject}.yaml", "--out", tmp_path / inject, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
        (rows[inject],) = rows_of(tmp_path / inject)
    told = rows["true"]
    assert (told["outcome"], told["signal"], told["signature"]) == ("worker_crash", "SIGKILL", "worker_signal"), told
    plain = rows["false"]
    assert (plain["outcome"], plain["signal"], plain["signature"]) == ("worker_crash", "", "worker_exited"), plain


def test_a_program_the_main_ran_that_exited_first_is_no_worker_of_its(tmp_path):
    # The sixty-eighth held-out set's sp_thread_validator_brokenpipe, alone: a writer thread streams predictions into
    # a validator (`python -c`, Popen) that refuses the header and exits 1 at once (`sys.exit("validator: bad
    # header ...")`); the thread's next write meets a broken pipe, and the main's future.result() raises
    # `BrokenPipeError: [Errno 32] Broken pipe` at the thread's flush, exit 1. The run read the validator's recorded
    # sys.exit as a worker's that ended itself (worker_crash, `worker_exited in <string>:<module>`, DataLoader advice).
    cell = tmp_path / "cell"
    cell.mkdir()
    validator = "from crashmatrix.incell import last_exit\nlast_exit.install()\nimport sys\nsys.exit('bad header')\n"
    env = {**os.environ, "PYTHONPATH": ROOT, "CRASHMATRIX_CELL_DIR": str(cell)}
    assert subprocess.run([sys.executable, "-c", validator], env=env, capture_output=True).returncode == 1
    assert exit_record.children_ends(str(cell), None)  # its end was recorded, as under inject
    stderr = _recorded_cell("heldout68/single", "sp_thread_validator_brokenpipe")
    verdict, where = forensics.refine(classify(1, stderr=stderr), Evidence(pid=1, started=0.0, stderr=stderr))
    verdict, where = exit_record.worker_ended_itself(verdict, where, str(cell), None, stderr)
    assert (verdict.outcome, verdict.error) == (Outcome.FAIL, "BrokenPipeError: [Errno 32] Broken pipe")
    assert where == "zoo/modes/sp_thread_validator_brokenpipe.py:29 in stream"


def _recorded_cell(run: str, mode: str) -> str:
    """The stderr.log of a recorded run's first repeat of a mode."""
    import csv

    folder = os.path.join(ROOT, "tests", "zoo", "recorded", run)
    with open(os.path.join(folder, "results.csv"), newline="") as f:
        (row,) = [r for r in csv.DictReader(f) if r["repeat"] == "0" and r["mode"] == mode]
    with open(os.path.join(folder, row["log_dir"], "stderr.log")) as f:
        return f.read()


def test_a_forkserver_worker_that_fails_as_it_starts_is_told_by_its_own_exception():
    # From a review of the rule, run for real (forkserver-setstate.err, torch 2.13): a DataLoader under forkserver
    # whose dataset's __setstate__ raises OSError as each worker unpickles it; forkserver's _serve_one, not
    # `<string>`'s spawn_main, runs spawn's _main there. Both workers print it and exit 1, then the loader's
    # `exited unexpectedly`. Before: worker_exited, with a remedy about sys.exit.
    stderr = _recorded("forkserver-setstate.err")
    verdict = classify(1, stderr=stderr)
    assert (verdict.outcome, verdict.signature) == (
        Outcome.WORKER_CRASH,
        "OSError: cannot reopen frame index for N frames in r2.py:__setstate__",
    )
    assert verdict.error.startswith("OSError: cannot reopen frame index for 16 frames; in a DataLoader worker")


def test_a_spawned_workers_failure_in_the_scripts_own_top_level_gets_the_spawn_remedy():
    # From a review, run for real (spawn-toplevel-start-method.err): the script calls mp.set_start_method("spawn") at
    # its top level, unguarded; each spawned worker imports the script again as __mp_main__, runs that line again
    # and fails with `RuntimeError: context has already been set` at r2.py:6, then exits 1. Its place is the
    # script's line, not spawn's: the remedy comes from what the error says of the worker.
    from crashmatrix.resolve.issue import whose_fix
    from crashmatrix.verdict.remedies import SPAWN_REBUILD, remedy_told

    stderr = _recorded("spawn-toplevel-start-method.err")
    verdict = classify(1, stderr=stderr)
    assert verdict.signature == "RuntimeError: context has already been set in r2.py:<module>"
    assert remedy_told(verdict.signature, "", verdict.error) == SPAWN_REBUILD
    assert "top-level code runs again in the child" in SPAWN_REBUILD
    kind = type("K", (), {"outcome": "worker_crash", "signal": "", "signature": verdict.signature})()
    whose, _culprit = whose_fix(kind, stderr, "r2.py:6 in <module>", verdict.error, {})
    assert whose.startswith("A failure of a known kind") and SPAWN_REBUILD in whose, whose


def test_the_spawn_remedy_comes_before_a_known_kinds_for_a_worker_that_failed_as_it_started():
    # a review's spawned worker failed at the script's top-level open() of a file the main had removed: the fix is the
    # guard (or fork), not writing the file; the same error in the main process keeps the missing file's advice
    from crashmatrix.verdict.remedies import FILE_MISSING, SPAWN_REBUILD, remedy_told

    signature = "FileNotFoundError: [Errno N] No such file or directory: 'cfg.json' in r5.py:<module>"
    started = "FileNotFoundError: ...; in a DataLoader worker as it started, first: the main then failed with ..."
    assert remedy_told(signature, "", started) == SPAWN_REBUILD
    assert remedy_told(signature, "", "FileNotFoundError: [Errno 2] No such file or directory: 'cfg.json'") == (
        FILE_MISSING
    )


def test_a_workers_own_setstate_that_raised_as_spawn_rebuilt_it_gets_no_spawn_remedy():
    # From a review, run alone (spawn-setstate-raises.err): the Dataset, a class at the script's top level, raises in
    # its own __setstate__ (r5.py:14) as each spawned worker rebuilds it; each worker exits 1 and the main fails with
    # `DataLoader worker (pid(s) N) exited unexpectedly`. Moving anything to the top level fixes nothing (it is
    # there); the fix is the program's __setstate__ (fork, which pickles nothing, hides it).
    from crashmatrix.verdict.remedies import remedy_told

    verdict = classify(1, stderr=_recorded("spawn-setstate-raises.err"))
    assert (verdict.outcome, verdict.signature) == (
        Outcome.WORKER_CRASH,
        "RuntimeError: Fragile: cannot be rebuilt in a worker (its file handle is gone) in r5.py:__setstate__",
    )
    assert remedy_told(verdict.signature, "", verdict.error) == ""


def test_a_lambda_a_spawned_worker_must_be_sent_gets_the_pickle_remedy():
    # From a review, run alone (spawn-lambda-transform.err): a Dataset holding a lambda transform, num_workers=2 under
    # spawn; the main raises `AttributeError: Can't pickle local object 'main.<locals>.<lambda>'` as it starts the
    # workers (r5.py:27, `for b in dl`), exit 1. A top-level function (r5_fixed_toplevel.py) or fork fixes it.
    from crashmatrix.verdict.remedies import PICKLE_REFUSED, remedy_told

    verdict = classify(1, stderr=_recorded("spawn-lambda-transform.err"))
    signed = signed_by_place(verdict, "multiprocessing/reduction.py:60 in dump; r5.py:27 in main")
    assert signed.signature == "AttributeError: Can't pickle local object 'main.<locals>.<lambda>' in r5.py:main"
    assert remedy_told(signed.signature, "", verdict.error) == PICKLE_REFUSED
    assert "define it at the top level of a module" in PICKLE_REFUSED and "start with fork" in PICKLE_REFUSED


def test_a_dataloader_iterated_with_no_main_guard_under_spawn_says_to_add_the_guard():
    # From a review, run alone (spawn-no-main-guard.err): r5_noguard.py iterates a DataLoader (num_workers=2, spawn)
    # at its top level; each child imports the script again, reaches the same loop and raises multiprocessing's
    # `An attempt has been made to start a new process before the current process has finished its bootstrapping
    # phase`; the `if __name__ == "__main__":` guard fixes it.
    from crashmatrix.verdict.remedies import remedy_told

    verdict = classify(1, stderr=_recorded("spawn-no-main-guard.err"))
    assert verdict.signature == "missing_main_guard"
    assert 'under `if __name__ == "__main__":`' in remedy_told(verdict.signature, "", verdict.error)
