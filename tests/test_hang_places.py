"""A hang's stacks and place with inject and without, and without py-spy: real hangs through the command line.

The programs are a user's project (`pyproject.toml` is the root marker `where` counts from) with two hangs of
the standard library alone: a busy loop, and a multiprocessing queue deadlock (the child's second put waits
for room in a queue of one, the parent joins the child before it gets), its child forked or spawned; and two
hangs inside a loop that calls a function of the program's: a `while` that never ends whose work is in a
function with no loop (caught there nearly every time, on the `while`'s own lines now and then: the forty-first
held-out set's NMS), and a lock taken again in a function a loop calls (it waits, it does not loop). py-spy
is hidden from crashmatrix (the `forensics` extra installs it here): without inject the stacks are
faulthandler's, which every cell has on (PYTHONFAULTHANDLER), dumped as SIGABRT ends each process.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, processes_with, rows_of

from crashmatrix.verdict import stacks
from crashmatrix.verdict.signature import hang_signature
from crashmatrix.verdict.straggler import _brief

pytestmark = pytest.mark.slow  # real hangs under short timeouts

MAIN = """\
import sys

if __name__ == "__main__":
    prog = dict(a.split("=", 1) for a in sys.argv[1:])["prog"]
    if prog == "busy":
        from busy import loop

        loop()
    elif prog == "own_abort":
        from busy import loop_with_own_abort_handler

        loop_with_own_abort_handler()
    elif prog in ("suppress", "log_each", "parse_each", "views"):
        import nms

        getattr(nms, prog)()
    else:
        from deadlock import deadlock

        deadlock("spawn" if prog == "deadlock_spawn" else "fork")
"""

BUSY = """\
import signal
import sys
import threading


def loop():
    n = 0
    while True:
        n += 1


def loop_with_own_abort_handler():
    signal.signal(signal.SIGABRT, lambda signum, frame: print("own SIGABRT handler ran", file=sys.stderr))
    threading.Event().wait()  # no CPU burnt: a signal's Python handler still runs in the main thread's wait
"""

DEADLOCK = """\
import multiprocessing


def produce(queue):
    for item in range(2):
        queue.put(item)  # a queue of one: the second put waits for room nobody makes


def deadlock(method):
    context = multiprocessing.get_context(method)
    queue = context.Queue(maxsize=1)
    child = context.Process(target=produce, args=(queue,))
    child.start()
    child.join()  # before any get: waits for a child that waits for room
    print(queue.get())
"""

NMS = """\
import re
import threading


def overlap(n):  # the loop's work, in a function with no loop of its own: ten lines alike, caught on any
    a = sum(range(n))
    b = sum(range(n))
    c = sum(range(n))
    d = sum(range(n))
    e = sum(range(n))
    f = sum(range(n))
    g = sum(range(n))
    h = sum(range(n))
    i = sum(range(n))
    j = sum(range(n))
    return a + b + c + d + e + f + g + h + i + j


def suppress():
    kept = []
    while True:  # its stop condition is never met
        kept.append(overlap(20_000))
        kept.clear()


def parse(line):
    return re.match(r"(a+)+$", line)  # backtracks for ever on a line that ends otherwise: one call


def parse_each():
    for line in ["aaa", "a" * 40 + "b"]:
        parse(line)


_lock = threading.Lock()


def log(line):
    with _lock:  # taken again while held: waits for ever
        print(line)


def log_each():
    with _lock:
        for step in range(3):
            log(f"step {step}")


def views():
    import queue

    made, meet = queue.Queue(), threading.Barrier(2)

    def view(k):
        if k == 0:
            meet.wait()  # its partner never comes to the barrier
        made.put(k)

    for k in range(2):
        threading.Thread(target=view, args=(k,), name=f"view-{k}", daemon=True).start()
    return made.get(), made.get()  # the second never comes
"""

# crashmatrix as a user without py-spy runs it
NO_PYSPY = (
    "import runpy, sys\n"
    "from crashmatrix.verdict import forensics\n"
    "forensics.pyspy_path = lambda: None\n"
    "sys.argv = ['crashmatrix'] + sys.argv[1:]\n"
    "runpy.run_module('crashmatrix', run_name='__main__')\n"
)

MATRICES = {
    # repeats: one hang keeps one signature
    "plain": "inject: false\naxes:\n  prog: [busy, deadlock]\nrepeats: 2\ntimeout: 3\n",
    "inject": "inject: true\naxes:\n  prog: [busy, deadlock, suppress, log_each, parse_each, views]\ntimeout: 3\n",
    # a spawned interpreter starts slower on a loaded box than a forked child: a longer timeout
    "more": "inject: false\naxes:\n  prog: [deadlock_spawn, own_abort]\ntimeout: 6\n",
}


@pytest.fixture(scope="module")
def hangs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hangs")
    (tmp / "pyproject.toml").write_text("[project]\nname = 'hangs'\n")
    (tmp / "app").mkdir()
    for name, text in (("main.py", MAIN), ("busy.py", BUSY), ("deadlock.py", DEADLOCK), ("nms.py", NMS)):
        (tmp / "app" / name).write_text(text)
    env = {**os.environ, "PYTHONPATH": ROOT}
    started = {}
    for name, body in MATRICES.items():
        (tmp / f"{name}.yaml").write_text(f"name: {name}\ncommand: [python, app/main.py]\n{body}kill_grace: 1\n")
        started[name] = subprocess.Popen(
            [sys.executable, "-c", NO_PYSPY, "run", f"{name}.yaml", "--out", name, "--jobs", "2"],
            cwd=tmp,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    for name, proc in started.items():
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, (name, err)
    return {"tmp": tmp, **{name: rows_of(tmp / name) for name in MATRICES}}


def _rows(hangs, matrix: str, prog: str) -> list[dict]:
    return [r for r in hangs[matrix] if r["prog"] == prog]


PLACES = {
    "busy": (r"main app/busy\.py:\d+ in loop", "hang in app/busy.py:loop"),
    "deadlock": (
        r"main app/deadlock\.py:14 in deadlock; child app/deadlock\.py:6 in produce",
        "hang in app/deadlock.py:deadlock; app/deadlock.py:produce",
    ),
}


@pytest.mark.parametrize("matrix", ["plain", "inject"])
@pytest.mark.parametrize("prog", sorted(PLACES))
def test_a_hang_is_placed_from_the_apps_root_with_inject_and_without(hangs, matrix, prog):
    where, signature = PLACES[prog]
    for row in _rows(hangs, matrix, prog):
        assert row["outcome"] == "timeout" and row["signal"] == "" and row["exit_code"] == "", row
        assert re.fullmatch(where, row["where"]), row
        assert row["signature"] == signature, row


def test_one_hang_keeps_one_signature_over_repeats_and_two_hangs_have_two(hangs):
    signatures = {prog: {r["signature"] for r in _rows(hangs, "plain", prog)} for prog in PLACES}
    assert [len(_rows(hangs, "plain", prog)) for prog in PLACES] == [2, 2]
    assert all(len(found) == 1 for found in signatures.values()), signatures
    assert signatures["busy"] != signatures["deadlock"]


def test_a_busy_loop_is_signed_by_the_function_that_loops_and_a_wait_by_where_it_waits(hangs):
    (busy,) = _rows(hangs, "inject", "suppress")
    # caught in overlap (nearly always) or on the while's own lines: one hang, the loop's, which the moving
    # line between samples tells from one call that never returns
    assert re.fullmatch(r"main app/nms\.py:\d+ in (?:overlap at app/nms\.py:22 in )?suppress", busy["where"]), busy
    assert busy["signature"] == "hang in app/nms.py:suppress", busy
    (waits,) = _rows(hangs, "inject", "log_each")  # its main thread does not run: not climbed to log_each's loop
    assert (waits["where"], waits["signature"]) == ("main app/nms.py:39 in log", "hang in app/nms.py:log"), waits
    # a review's: one call that never returns (a regular expression's backtracking), called from a loop, on the
    # same line in every sample: its own place, not the loop's
    (stayed,) = _rows(hangs, "inject", "parse_each")
    assert (stayed["where"], stayed["signature"]) == ("main app/nms.py:27 in parse", "hang in app/nms.py:parse")
    # the forty-fourth set's close call: a main waiting on a queue.Queue that a thread of the program's should fill
    (views,) = _rows(hangs, "inject", "views")
    assert views["where"] == "main app/nms.py:61 in views; thread app/nms.py:56 in view", views


def test_the_bug_report_tells_a_loop_from_a_wait(hangs):
    # the same cells' stacks.txt says which process ran as it was caught; ISSUE.md says so
    progs = ("suppress", "log_each", "parse_each")
    cells = {prog: hangs["tmp"] / "inject" / _rows(hangs, "inject", prog)[0]["log_dir"] for prog in progs}
    assert stacks.LOOPED in (cells["suppress"] / "stacks.txt").read_text().split("\n=== pid ")[0]
    assert stacks.STAYED in (cells["parse_each"] / "stacks.txt").read_text().split("\n=== pid ")[0]
    assert "its main thread was running" not in (cells["log_each"] / "stacks.txt").read_text()
    resolved = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "resolve", "inject"], cwd=hangs["tmp"], capture_output=True, text=True
    )
    assert resolved.returncode == 0, resolved.stderr
    reports = {p.parent.name: p.read_text() for p in (hangs["tmp"] / "inject" / "repro").glob("*/ISSUE.md")}
    (loop,) = [text for name, text in reports.items() if name.endswith("suppress")]
    assert "running, not waiting, as it was caught, on other lines each time: a loop there that never ends." in loop
    (stayed,) = [text for name, text in reports.items() if name.endswith("parse")]
    assert "on the same line each time: one call that did not return within the time limit" in stayed
    (wait,) = [text for name, text in reports.items() if name.endswith("nms.py-log")]
    assert "A wait inside a library" in wait and "running, not waiting" not in wait


def test_without_inject_every_python_process_left_its_stacks(hangs):
    (row,) = [r for r in _rows(hangs, "plain", "deadlock") if r["repeat"] == "0"]
    cell = hangs["tmp"] / "plain" / row["log_dir"]
    text = (cell / "stacks.txt").read_text()
    parts = text.split("=== pid ")[1:]
    assert [p.split("(", 1)[1].split(")", 1)[0] for p in parts] == ["main", "child"], text
    assert all("(faulthandler, as SIGABRT ended the process)" in p for p in parts), text
    assert 'deadlock.py", line 14 in deadlock' in parts[0] and 'deadlock.py", line 6 in produce' in parts[1]
    # the error keeps its short words, and the verdict read only what the program wrote before the kill
    assert row["error"].startswith("timed out after 3 s; main in deadlock (deadlock.py:14); child "), row
    assert row["error"].endswith(" in produce (deadlock.py:6)"), row
    assert "Fatal Python error: Aborted" in (cell / "stderr.log").read_text()
    assert json.loads((cell / "result.json").read_text())["stderr_at_kill"] == 0  # the dumps came after it
    assert not list(cell.glob("core*")) and not list((hangs["tmp"] / "app").glob("core*"))


def test_a_spawned_child_reads_faulthandler_from_its_environment(hangs):
    (row,) = _rows(hangs, "more", "deadlock_spawn")
    assert row["where"] == "main app/deadlock.py:14 in deadlock; child app/deadlock.py:6 in produce", row
    assert row["signature"] == "hang in app/deadlock.py:deadlock; app/deadlock.py:produce", row
    text = (hangs["tmp"] / "more" / row["log_dir"] / "stacks.txt").read_text()
    # spawn's resource tracker is left to clean up after the program: not asked to dump and end
    assert "(resource tracker): " in text and "(no stacks: multiprocessing's own helper" in text, text


def test_a_programs_own_sigabrt_handler_runs_instead_and_the_hang_ends_as_before(hangs):
    (row,) = _rows(hangs, "more", "own_abort")
    cell = hangs["tmp"] / "more" / row["log_dir"]
    assert (row["outcome"], row["signature"], row["where"]) == ("timeout", "hang", ""), row
    assert "own SIGABRT handler ran" in (cell / "stderr.log").read_text()
    assert "(no stacks: " in (cell / "stacks.txt").read_text()
    # its wait for a dump that does not come is bounded (a second), then SIGTERM ends it
    assert float(row["duration_s"]) < 6 + 1 + 1 + 3, row


def test_diagnose_of_a_hung_cells_logs_places_it_as_its_run_did(hangs):
    """`crashmatrix diagnose CELL` of a hang: its stderr.log holds nothing of where it waited (empty, or, without
    inject, the dumps SIGABRT made at the kill), its stacks.txt does, and diagnose reads it beside the log."""
    from crashmatrix.resolve.diagnose import diagnose
    from crashmatrix.resolve.log_text import read_logs

    cells = [(name, row) for name in MATRICES for row in hangs[name] if row["signature"] != "hang"]
    assert len(cells) == 11
    for name, row in cells:
        cell = hangs["tmp"] / name / row["log_dir"]
        said = diagnose(read_logs([str(cell / "stderr.log")])).row
        assert (said["outcome"], said["signal"], said["rank"]) == ("timeout", "", ""), (name, row, said)
        # a busy loop's holder too (`overlap at app/nms.py:22 in suppress`): from the samples stacks.txt keeps
        assert (said["where"], said["signature"]) == (row["where"], row["signature"]), (name, row, said)
    (row,) = [r for r in _rows(hangs, "plain", "deadlock") if r["repeat"] == "0"]
    printed = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "diagnose", f"plain/{row['log_dir']}", "--json"],
        cwd=hangs["tmp"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ROOT},
    )
    assert printed.returncode == 0, printed.stderr
    found = json.loads(printed.stdout)
    assert (found["outcome"], found["where"]) == ("timeout", row["where"]), found
    assert found["error"].startswith("timed out; main in deadlock (deadlock.py:14)"), found  # not the kill's abort


def test_no_process_of_the_hangs_outlives_them(hangs):
    for name in MATRICES:
        assert processes_with(f"CRASHMATRIX_RUN_DIR={hangs['tmp'] / name}") == []


# --- the words, without processes ------------------------------------------------


@pytest.mark.parametrize(
    "where, signature",
    [
        ("main app/busy.py:3 in loop", "hang in app/busy.py:loop"),
        ("main app/busy.py:4 in loop", "hang in app/busy.py:loop"),
        (
            "main app/deadlock.py:14 in deadlock; child app/deadlock.py:6 in produce",
            "hang in app/deadlock.py:deadlock; app/deadlock.py:produce",
        ),
        # two workers stuck alike in one repeat, one in the next: one hang
        (
            "main DataLoader _get_data (dataloader.py:1464); worker app/video.py:8 in read_frame; worker "
            "app/video.py:9 in read_frame",
            "hang in main DataLoader _get_data (dataloader.py:N); app/video.py:read_frame",
        ),
        # the main's own line below the usual wait signs it, the wait's name kept as a collective's is
        (
            "main DataLoader _get_data (dataloader.py:1464) at app/train.py:40 in fit; worker app/video.py:8 in "
            "read_frame",
            "hang in DataLoader _get_data at app/train.py:fit; app/video.py:read_frame",
        ),
        (
            "main CUDA synchronize (__init__.py:1162) at zoo/modes/y_hang_spin_flag.py:26 in main",
            "hang in CUDA synchronize at zoo/modes/y_hang_spin_flag.py:main",
        ),
        (
            "rank 1 zoo/ddp.py:58 in wait_for_shard; rank 0 in DDP forward at zoo/ddp.py:84 in train",
            "hang in zoo/ddp.py:wait_for_shard; DDP forward at zoo/ddp.py:train",
        ),
        # ranks in two collectives (HELDOUT3.md's k_ddp_collective_unmatched): each by its collective and frame
        (
            "rank 0 in barrier at zoo/modes/unmatched.py:17 in run; rank 1 in all_reduce at zoo/modes/unmatched.py:10 "
            "in log_metric",
            "hang in barrier at zoo/modes/unmatched.py:run; all_reduce at zoo/modes/unmatched.py:log_metric",
        ),
        ("ranks 0, 1 in all_reduce at app/train.py:63 in main", "hang in all_reduce at app/train.py:main"),
        ("rank 0 in all_reduce", "hang in rank N in all_reduce"),  # no frame of the program's: its words
        ("", "hang"),
    ],
)
def test_a_hang_is_signed_by_its_places_without_lines_roles_or_pids(where, signature):
    assert hang_signature(where) == signature


def test_the_main_and_a_forked_childs_frames_are_named_from_the_apps_root(tmp_path):
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "app").mkdir()
    entry, target = tmp_path / "app" / "main.py", tmp_path / "app" / "work.py"
    mp = "/usr/lib/python3.11/multiprocessing"
    main = stacks.ProcessStacks(1, "python app/main.py")
    main.threads = stacks.parse_faulthandler(
        "Current thread 0x1 (most recent call first):\n"
        f'  File "{mp}/popen_fork.py", line 27 in poll\n'
        f'  File "{entry}", line 9 in run\n'
        f'  File "{entry}", line 12 in <module>\n'
    )
    child = stacks.ProcessStacks(2, "python app/main.py")
    child.threads = stacks.parse_faulthandler(
        "Current thread 0x1 (most recent call first):\n"
        f'  File "{target}", line 5 in produce\n'
        f'  File "{mp}/process.py", line 314 in _bootstrap\n'
        f'  File "{entry}", line 8 in run\n'
        f'  File "{entry}", line 12 in <module>\n'
    )
    # a forked child's stack goes on into its parent's: with none of the program's frames above
    # multiprocessing's _bootstrap, it is idle, not stuck at its parent's line
    idle = stacks.ProcessStacks(3, "python app/main.py")
    idle.threads = stacks.parse_faulthandler(
        "Current thread 0x1 (most recent call first):\n"
        f'  File "{mp}/synchronize.py", line 95 in __enter__\n'
        f'  File "{mp}/process.py", line 314 in _bootstrap\n'
        f'  File "{entry}", line 8 in run\n'
        f'  File "{entry}", line 12 in <module>\n'
    )
    error, where = stacks.summarize(main, [child, idle])
    assert where == "main app/main.py:9 in run; child app/work.py:5 in produce"
    assert error == "main in run (main.py:9); child 2 in produce (work.py:5)"


def test_the_error_names_a_ranks_place_by_its_file_alone():
    assert _brief("at examples/ddp_hang.py:20 in main") == "at ddp_hang.py:20 in main"
    assert _brief(" (zoo/ddp.py:84)") == " (ddp.py:84)"
    assert (
        _brief("waits in DataLoader _get_data (dataloader.py:1464)")
        == "waits in DataLoader _get_data (dataloader.py:1464)"
    )


def _sleeper(tmp_path, name: str) -> tuple[subprocess.Popen, str]:
    """A Python process with faulthandler on, its stderr a file, once it is ready (it says so)."""
    err = str(tmp_path / f"{name}.err")
    code = "import time\nprint('ready', flush=True)\ndef wait():\n    time.sleep(60)\nwait()\n"
    with open(err, "w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc, err


def test_faulthandlers_dump_on_sigabrt_and_a_stopped_process_is_left_as_it_was(tmp_path):
    from crashmatrix.verdict import forensics

    running, err = _sleeper(tmp_path, "running")
    stopped, _err = _sleeper(tmp_path, "stopped")
    try:
        os.kill(stopped.pid, signal.SIGSTOP)
        os.waitpid(stopped.pid, os.WUNTRACED)  # returns once it is stopped
        stopped_state = forensics._state(stopped.pid)
        dumps = forensics.abort_dumps([running.pid, stopped.pid], [running.pid, stopped.pid])
        assert running.wait(timeout=10) == -signal.SIGABRT
        assert dumps[running.pid].startswith("Fatal Python error: Aborted\n")
        assert 'File "<string>", line 4 in wait' in dumps[running.pid]
        assert stopped.pid not in dumps and forensics._state(stopped.pid) == stopped_state == "T"
    finally:
        for proc in (running, stopped):
            proc.kill()
            proc.wait()


def _recorded_main(cell: str, pid: int) -> stacks.ProcessStacks:
    """A held-out set's recorded main process at its timeout (tests/zoo/recorded/CELL/stacks.txt), from its
    faulthandler dump; its frames name the recording checkout's files, read as this one's."""
    from diagnose_agreement import _checkout_paths

    with open(os.path.join(ROOT, "tests", "zoo", "recorded", cell, "stacks.txt"), encoding="utf-8") as f:
        dump = _checkout_paths(f.read()).split("(faulthandler)\n", 1)[1].split("--- py-spy dump", 1)[0]
    return stacks.ProcessStacks(pid, "python main.py", faulthandler=dump, threads=stacks.parse_faulthandler(dump))


def test_a_main_that_joins_a_thread_names_where_that_thread_waits():
    # the sixth held-out set's p_hang_event_never_set, its recorded stacks: the main joins a thread that waits for
    # an Event nothing sets; the main's join alone says what it waits for, not where the wait is
    root = _recorded_main("heldout6/hangs-inject/cells/24bc62ab1e-r0", 30356)
    clause, where = stacks.summarize(root, [])
    assert clause == "main in main (p_hang_event_never_set.py:30); its thread in run (p_hang_event_never_set.py:17)"
    assert where.endswith("; thread zoo/modes/p_hang_event_never_set.py:17 in run"), where


def test_an_exit_kept_alive_by_a_thread_names_that_thread():
    # the seventh held-out set's q_hang_nondaemon_thread, its recorded stacks: main() returned, and the interpreter
    # waits at exit (threading._shutdown) for a non-daemon thread blocked in queue.get; the main's own frame is
    # the standard library's, no line of the program
    root = _recorded_main("heldout7/hangs2-inject/cells/502fd0a7be-r0", 25925)
    clause, where = stacks.summarize(root, [])
    assert clause.endswith("; its thread in metrics_writer (q_hang_nondaemon_thread.py:12)"), clause
    assert where.endswith("; thread zoo/modes/q_hang_nondaemon_thread.py:12 in metrics_writer"), where


def test_two_threads_taking_two_locks_in_opposite_orders_are_both_named():
    # the seventh held-out set's q_hang_abba_locks, its recorded stacks: the main holds model_lock and waits for
    # metrics_lock at :29; the checkpoint thread holds metrics_lock and waits for model_lock at :18. Each wait is
    # half of the deadlock: the main's alone does not say which lock order to fix
    root = _recorded_main("heldout7/hangs-inject/cells/3e1ccb61f1-r0", 24436)
    clause, where = stacks.summarize(root, [])
    assert clause == "main in main (q_hang_abba_locks.py:29); its thread in checkpoint_thread (q_hang_abba_locks.py:18)"
    assert where == (
        "main zoo/modes/q_hang_abba_locks.py:29 in main; thread zoo/modes/q_hang_abba_locks.py:18 in checkpoint_thread"
    ), where


def test_a_main_taking_a_lock_does_not_name_a_thread_that_sleeps():
    # the same main, its other thread sleeping in the program's code (a heartbeat), not taking a lock: the hang is
    # the main's alone. The source the dump names is written here, as the program's
    program = os.path.join(ROOT, "tests", "zoo", "app", "zoo", "modes", "q_hang_abba_locks.py")
    heartbeat = os.path.join(ROOT, "tests", "apps", "video.py")  # line 8: time.sleep(0.2) in a loop
    dump = (
        f'Thread 0x00007f4ead9146c0 (most recent call first):\n  File "{heartbeat}", line 8 in read_frame\n'
        '  File "/usr/lib/python3.11/threading.py", line 982 in run\n'
        '  File "/usr/lib/python3.11/threading.py", line 1002 in _bootstrap\n\n'
        f'Current thread 0x00007f4ecfa40b80 (most recent call first):\n  File "{program}", line 29 in main\n'
    )
    root = stacks.ProcessStacks(1, "python main.py", faulthandler=dump, threads=stacks.parse_faulthandler(dump))
    assert stacks.summarize(root, [])[0] == "main in main (q_hang_abba_locks.py:29)"


def test_a_main_waiting_in_torch_distributed_is_placed_at_the_programs_call():
    # the eighth held-out set's s_hang_init_world2, its recorded stacks: one process with WORLD_SIZE=2 waits in
    # init_process_group's rendezvous (gloo) for a rank 1 nobody started. The place was `main NCCL collective
    # init_process_group (distributed_c10d.py:1892)`: no line of the program, and neither NCCL nor a collective
    root = _recorded_main("heldout8/hangs-inject/cells/6084e45754-r0", 8461)
    clause, where = stacks.summarize(root, [])
    assert (
        clause
        == "main waits in c10d init_process_group (distributed_c10d.py:1892) from main (s_hang_init_world2.py:20)"
    )
    assert where == "main in init_process_group at zoo/modes/s_hang_init_world2.py:20 in main"
    assert hang_signature(where) == "hang in init_process_group at zoo/modes/s_hang_init_world2.py:main"


def test_a_main_waiting_for_a_futures_result_names_the_pool_thread_where_it_waits():
    # the ninth held-out set's t_hang_executor_nested, its recorded stacks: the main waits in Future.result() (:25);
    # the pool's only thread runs the task, which waits in result() too (:20) for loads queued behind itself
    root = _recorded_main("heldout9/hangs2-inject/cells/092712e0dc-r0", 32278)
    clause, where = stacks.summarize(root, [])
    assert (
        clause == "main in main (t_hang_executor_nested.py:25); its thread in load_epoch (t_hang_executor_nested.py:20)"
    )
    assert where == (
        "main zoo/modes/t_hang_executor_nested.py:25 in main; thread zoo/modes/t_hang_executor_nested.py:20 in load_epoch"
    )


# The twenty-seventh held-out set's ex_hang_pool_maxtasks_tensors, one repeat's stacks.txt (live, 2026-11-30): a
# Pool with maxtasksperchild=1 forks a worker per task and spins a core; the main's faulthandler dump stopped
# mid-line in the worker-handler thread and never reached the main thread, which waits in pool.map at :18.
CUT_DUMP = """\
Thread 0x00007f52bac146c0 (most recent call first):
  File "/usr/lib/python3.11/multiprocessing/pool.py", line 531 in _handle_tasks
  File "/usr/lib/python3.11/threading.py", line 982 in run
  File "/usr/lib/python3.11/threading.py", line 1045 in _bootstrap_inner
  File "/usr/lib/python3.11/threading.py", line 1002 in _bootstrap

Thread 0x00007f52be5ff6c0 (most recent call first):
  File"""


def test_a_dump_cut_before_the_main_thread_places_no_main_in_another_thread():
    from crashmatrix.verdict.stacks import ProcessStacks, main_thread, parse_faulthandler, summarize

    threads = parse_faulthandler(CUT_DUMP)
    assert len(threads) == 2 and main_thread(threads, 4242) is threads[1] and threads[1].frames == []
    root = ProcessStacks(4242, "", faulthandler=CUT_DUMP)
    root.threads = threads
    _error, where = summarize(root, [])
    assert "_handle_tasks" not in where and "pool.py" not in where, where


def test_a_loop_is_the_functions_own_whose_body_holds_it(tmp_path):
    source = tmp_path / "loops.py"
    source.write_text(
        "def outer():\n"  # 1
        "    for step in range(3):\n"  # 2
        "        def inner():\n"  # 3
        "            return step\n"  # 4
        "        inner()\n"  # 5
        "\n"
        "class Sampler:\n"  # 7
        "    def __iter__(self):\n"  # 8
        "        while True:\n"  # 9
        "            yield 1\n"  # 10
    )
    path = str(source)
    assert stacks._in_a_loop(stacks.Frame("outer", path, "5"))
    assert not stacks._in_a_loop(stacks.Frame("inner", path, "4"))  # defined in outer's loop, no loop of its own
    assert stacks._in_a_loop(stacks.Frame("Sampler.__iter__", path, "10"))  # py-spy's name for a method
    assert stacks._in_a_loop(stacks.Frame("__iter__", path, "10"))  # faulthandler's
    assert stacks._in_a_loop(stacks.Frame("<listcomp>", path, "5"))  # a comprehension's own frame is its loop


def test_a_busy_loops_holder_is_the_deepest_frame_every_sample_shares_that_loops(tmp_path):
    # a review's endless generator read by a comprehension: caught in gen() once, in step() the next time
    source = tmp_path / "comp.py"
    source.write_text(
        "def gen():\n"  # 1
        "    n = 0\n"  # 2
        "    while True:\n"  # 3
        "        n += 1\n"  # 4
        "        yield n\n"  # 5
        "def step(x):\n"  # 6
        "    return x * 2\n"  # 7
        "def comp():\n"  # 8
        "    return [step(x) for x in gen()]\n"  # 9
    )
    path = str(source)
    listcomp, comp = stacks.Frame("<listcomp>", path, "9"), stacks.Frame("comp", path, "9")
    in_step = [stacks.Frame("step", path, "7"), listcomp, comp]
    in_gen = [stacks.Frame("gen", path, "4"), listcomp, comp]
    assert stacks.looped(in_step, [in_gen, in_step])
    assert stacks.busy_place(in_step[0], in_step, [in_gen, in_step]).endswith(" in step at comp.py:9 in <listcomp>")
    assert not stacks.looped(in_step, [in_step, in_step])  # the same line each time: one call, not climbed
    assert stacks.busy_place(in_step[0], in_step, [in_step]) == "comp.py:7 in step"
