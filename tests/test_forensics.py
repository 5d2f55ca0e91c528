"""Where a cell hung or died: real hangs and real segfaults through the command line, plus the parsers.

Kernel log lines cannot be produced here on demand (an OOM kill of the host is out of the question, and
faulthandler suppresses the kernel's segfault line), so their parsing is tested on lines in the
kernel's own format (mm/oom_kill.c, arch/x86/mm/fault.c), written out below and marked as such.
"""

import glob
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, processes_with, rows_of

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import app_paths, forensics, stacks
from crashmatrix.verdict.classify import Verdict
from crashmatrix.verdict.evidence import Evidence, cgroup_oom_counter

APP = os.path.join(ROOT, "tests", "apps", "frames_app.py")
DATA = os.path.join(ROOT, "tests", "data")


@pytest.fixture(scope="module")
def inject_run(tmp_path_factory):
    """An unmodified torch script under inject: one cell hangs in a DataLoader worker, one segfaults in libc."""
    tmp = tmp_path_factory.mktemp("forensics")
    # 30 s, not 8: on a loaded 2-core box torch's import alone took 9 s in CI, so an 8 s timeout caught
    # the main still importing, before the worker it is meant to find stuck had started
    (tmp / "m.yaml").write_text(
        f"name: frames\ncommand: [python, {APP}]\ninject: true\n"
        "axes:\n  mode: [hang, segv_libc]\n  start_method: [fork]\ntimeout: 30\nkill_grace: 1\n"
    )
    proc = crashmatrix("run", "m.yaml", "--out", tmp / "run", "--jobs", "2", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    return {"out": tmp / "run", "rows": {r["mode"]: r for r in rows_of(tmp / "run")}}


@pytest.mark.slow
def test_a_hanging_worker_is_located_in_the_users_frame(inject_run):
    row = inject_run["rows"]["hang"]
    assert row["outcome"] == "timeout"
    error = row["error"]
    assert error.startswith("timed out after 30 s; main waits in DataLoader _get_data (dataloader.py:"), error
    assert "; worker " in error and error.endswith(" in read_frame (video.py:8)"), error
    assert row["where"].startswith("main DataLoader _get_data (dataloader.py:")
    assert row["where"].endswith("worker tests/apps/video.py:8 in read_frame")  # from the root: the checkout
    # the main's own line that waits there, from the app's root too (issue 52: a hang's place is the program's)
    assert " at tests/apps/frames_app.py:31 in <module>; worker " in row["where"], row["where"]
    assert (
        row["signature"]
        == "hang in DataLoader _get_data at tests/apps/frames_app.py:<module>; tests/apps/video.py:read_frame"
    )


@pytest.mark.slow
def test_stacks_txt_holds_the_main_process_and_the_stuck_worker(inject_run):
    cell = inject_run["out"] / inject_run["rows"]["hang"]["log_dir"]
    stacks = (cell / "stacks.txt").read_text()
    worker_pid = inject_run["rows"]["hang"]["error"].split("; worker ")[1].split()[0]
    assert stacks.startswith("=== pid ") and "(main): " in stacks.splitlines()[0]
    assert f"=== pid {worker_pid} (DataLoader worker): " in stacks
    assert "most recent call first" in stacks  # faulthandler's dump
    main_part, worker_part = stacks.split(f"=== pid {worker_pid} ")
    assert "in _get_data" in main_part and "frames_app.py" in main_part
    assert 'video.py", line 8 in read_frame' in worker_part
    if forensics.pyspy_path():
        assert "--- py-spy dump" in worker_part and "read_frame (" in worker_part and "video.py:8)" in worker_part
    assert not (cell / ".stacks").exists()  # the per-process dump files are not left behind


@pytest.mark.slow
def test_the_hung_tree_is_gone(inject_run):
    assert processes_with(f"CRASHMATRIX_RUN_DIR={inject_run['out']}") == []


@pytest.mark.slow
def test_a_segfault_inside_libc_names_libc(inject_run):
    row = inject_run["rows"]["segv_libc"]
    assert (row["outcome"], row["signal"]) == ("crash", "SIGSEGV")
    assert row["where"].startswith("libc.so"), row


@pytest.mark.slow
def test_probe_crashes_name_the_faulting_library(tmp_path, write):
    path = write("p.yaml", "name: p\nprobe: fault\naxes:\n  mode: [segv_torch, worker_segv]\ntimeout: 60\n")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = {r["mode"]: r for r in rows_of(tmp_path / "run")}
    assert (rows["segv_torch"]["outcome"], rows["segv_torch"]["where"][:7]) == ("crash", "libc.so")
    assert (rows["worker_segv"]["outcome"], rows["worker_segv"]["where"][:7]) == ("worker_crash", "libc.so")
    # The worker's own line survives torch's handler in front of it.
    stderr = (tmp_path / "run" / rows["worker_segv"]["log_dir"] / "stderr.log").read_text()
    assert "ERROR: Unexpected segmentation fault encountered in worker." in stderr


LMDB_APP = os.path.join(ROOT, "tests", "apps", "lmdb_app")


def _line_of(path: str, text: str) -> int:
    with open(path) as f:
        return next(n for n, line in enumerate(f, 1) if text in line)


@pytest.fixture(scope="module")
def lmdb_run(tmp_path_factory):
    """An app reading an LMDB dataset (tests/apps/lmdb_app) under inject: once intact, once with its
    data.mdb cut to half, as a copy that stopped would leave it."""
    tmp = tmp_path_factory.mktemp("lmdb")
    train = os.path.join(LMDB_APP, "train.py")
    subprocess.run([sys.executable, train, f"prepare={tmp / 'intact'}"], check=True, timeout=120)
    shutil.copytree(tmp / "intact", tmp / "cut")
    size = os.path.getsize(tmp / "cut" / "data.mdb")
    os.truncate(tmp / "cut" / "data.mdb", size // 2 // 4096 * 4096)
    (tmp / "m.yaml").write_text(
        f"name: lmdb\ncommand: [python, {train}]\ninject: true\naxes:\n  data: [{tmp / 'intact'}, {tmp / 'cut'}]\n"
        "timeout: 120\n"
    )
    proc = crashmatrix("run", "m.yaml", "--out", tmp / "run", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    return {"out": tmp / "run", "rows": {os.path.basename(r["data"]): r for r in rows_of(tmp / "run")}}


@pytest.mark.slow
def test_a_sigbus_inside_an_extension_names_its_package_and_the_programs_line(lmdb_run):
    import lmdb

    (extension,) = glob.glob(os.path.join(os.path.dirname(lmdb.__file__), "cpython.*.so"))
    row = lmdb_run["rows"]["cut"]
    assert (row["outcome"], row["signal"]) == ("crash", "SIGBUS"), row
    # lmdb's C extension by its path below site-packages, not `cpython.cpython-311-...so` as if CPython,
    # then the app's own line that read the database, from faulthandler's dump in stderr.log.
    line = _line_of(os.path.join(LMDB_APP, "dataset.py"), 'txn.get(b"label-')
    assert row["where"].startswith(f"lmdb/{os.path.basename(extension)} (+0x"), row["where"]
    # The app's file by its path from the app's root (this repository's: its pyproject.toml), not a bare
    # `dataset.py`, which torch has too.
    assert row["where"].endswith(f"; tests/apps/lmdb_app/dataset.py:{line} in _preprocess_labels"), row["where"]
    assert lmdb_run["rows"]["intact"]["outcome"] == "pass", lmdb_run["rows"]["intact"]
    # The summary's failing cells show the whole place.
    assert row["where"] in (lmdb_run["out"] / "summary.md").read_text()


@pytest.mark.slow
def test_a_kernel_line_about_an_extension_is_completed_from_faulthandlers_list(lmdb_run):
    # The kernel names a file only. The cell's real stderr.log (faulthandler's `Extension modules:`
    # line) says which package's `cpython` module it is. The kernel's line is in its own format.
    stderr = (lmdb_run["out"] / lmdb_run["rows"]["cut"]["log_dir"] / "stderr.log").read_text()
    name = "cpython.cpython-311-x86_64-linux-gnu.so"
    kernel = [
        f"python[4321]: segfault at 7f35b2600000 ip 00007f35b2590ddb sp 00007ffd5c3e1a48 error 4 in {name}[fddb,7f35b2581000+3b000]"
    ]
    assert forensics.kernel_fault_place(kernel, {4321}, stderr) == f"lmdb/{name} (+0xfddb)"
    assert forensics.kernel_fault_place(kernel, {4321}) == f"{name} (+0xfddb)"  # nothing to tell it by


@pytest.mark.parametrize(
    "path, name",
    [
        (
            "/home/u/.venv/lib/python3.11/site-packages/lmdb/cpython.cpython-311-x86_64-linux-gnu.so",
            "lmdb/cpython.cpython-311-x86_64-linux-gnu.so",
        ),
        (
            "/usr/lib/python3/dist-packages/torch/_C.cpython-312-x86_64-linux-gnu.so",
            "torch/_C.cpython-312-x86_64-linux-gnu.so",
        ),
        (
            "/x/lib/python3.11/site-packages/numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so",
            "numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so",
        ),
        ("/home/u/app/mypkg/_native.abi3.so", "mypkg/_native.abi3.so"),
        ("/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6"),
        ("/v/site-packages/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9", "libcudnn_engines_precompiled.so.9"),
    ],
)
def test_a_library_is_named_by_its_file_and_an_extension_by_its_package(path, name):
    assert forensics.library_name(path) == name


# faulthandler's dump in its own format (Modules/faulthandler.c): the thread that died need not be
# the first one dumped, and its innermost frames may be the standard library's or a package's.
FAULTHANDLER_DUMP = """\
Fatal Python error: Segmentation fault

Thread 0x00007f0a1b2c3640 (most recent call first):
  File "/usr/lib/python3.11/threading.py", line 324 in wait
  File "/home/u/app/prefetch.py", line 12 in run

Current thread 0x00007f0a1c9d4b80 (most recent call first):
  File "/usr/lib/python3.11/json/decoder.py", line 353 in raw_decode
  File "/home/u/.venv/lib/python3.11/site-packages/imgaug/augmenters/base.py", line 77 in augment
  File "/home/u/app/strhub/data/dataset.py", line 98 in _preprocess_labels
  File "/home/u/app/strhub/data/dataset.py", line 40 in __init__
  File "/home/u/app/train.py", line 20 in main

Extension modules: numpy._core._multiarray_umath, lmdb.cpython (total: 2)
"""


def test_the_programs_innermost_own_frame_of_the_thread_that_died():
    # by its path from the app's root: the folder of its entry script (train.py), the outermost own frame
    assert forensics.own_fault_frame(FAULTHANDLER_DUMP) == "strhub/data/dataset.py:98 in _preprocess_labels"
    only_it = 'Fatal Python error: Bus error\n\nStack (most recent call first):\n  File "/home/u/app/dataset.py", line 98 in f\n'
    assert forensics.own_fault_frame(only_it) == "dataset.py:98 in f"


# Four forked workers of tests/apps/loader_speed.py that segfault at once, from one cell's stderr of a
# full `make test` run (standard library paths shortened): the third dump is whole, the fourth came out
# interleaved with the main process's own dump of the same stack. 1 repeat in 2 of that cell read so.
INTERLEAVED_DUMPS = """\
Fatal Python error: Segmentation fault

Current thread 0x00007fc654636b80 (most recent call first):
  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "/home/u/app/loader_speed.py", line 36 in work
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108 in run
  File "/home/u/app/loader_speed.py", line 45 in batches_from_workers
  File "/home/u/app/loader_speed.py", line 72 in <module>
Fatal Python error:   File Segmentation fault"

/home/u/app/loader_speed.py", line 45 in batches_from_workersCurrent thread 0x
00007fc654636b80  File  (most recent call first):
"  File /home/u/app/loader_speed.py""/usr/lib/python3.11/ctypes/__init__.py, line "66 in , line main519
 in   File string_at"
/home/u/app/loader_speed.py  File "", line /home/u/app/loader_speed.py72" in , line <module>36
 in work
Traceback (most recent call last):
  File "/home/u/app/loader_speed.py", line 72, in <module>
RuntimeError: worker process 17932 terminated with signal SIGSEGV
"""


def test_an_interleaved_last_dump_gives_way_to_the_whole_one_before_it():
    assert forensics.own_fault_frame(INTERLEAVED_DUMPS) == "loader_speed.py:36 in work"


def test_a_dump_cut_short_by_another_gives_way_to_the_last_whole_one():
    # tests/data/torn-worker-dumps: the second of four dumps stops after `string_at`, its line run into the
    # third's header. Read as the thread that died, it had no frame of the program's: 1 repeat in 2 of a
    # cell had no place, and that cell's one failure got two signatures.
    with open(os.path.join(DATA, "torn-worker-dumps", "every-later-dump-torn.err")) as f:
        stderr = f.read()
    assert forensics.own_fault_frame(stderr) == "loader_speed.py:36 in work"
    assert [f.func for f in forensics.died_thread_frames(stderr)][:2] == ["string_at", "work"]


def test_the_apps_root_is_its_nearest_project_marker_else_its_entry_scripts_folder(tmp_path):
    (tmp_path / "repo" / "scripts").mkdir(parents=True)
    (tmp_path / "repo" / "pyproject.toml").write_text("")
    assert app_paths.app_root(str(tmp_path / "repo" / "scripts" / "train.py")) == str(tmp_path / "repo")
    (tmp_path / "loose").mkdir()
    assert app_paths.app_root(str(tmp_path / "loose" / "train.py")) == str(tmp_path / "loose")
    assert app_paths.from_root("/elsewhere/x.py", str(tmp_path)) == "/elsewhere/x.py"
    assert forensics.own_fault_frame("RuntimeError: no fatal error here\n") == ""


# Recorded on this machine (torch 2.13 CPU): the faulting thread's block of torch's fatal-signal backtrace,
# then another thread's block (collected with SIGUSR2), which must not be taken for the fault.
TORCH_BACKTRACE = """\
SIGSEGV(11), PID: 6272, Thread 6272:
 frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8f (0x7f8a69d90c4f in /venv/torch/lib/libc10.so)
frame #1: c10::FatalSignalHandler::fatalSignalHandler(int, siginfo_t*) + 0x2da (0x7f8a69d9127a in /venv/torch/lib/libc10.so)
frame #2: <unknown function> + 0x3c050 (0x7f8a6c05a050 in /lib/x86_64-linux-gnu/libc.so.6)
frame #3: <unknown function> + 0x156219 (0x7f8a6c174219 in /lib/x86_64-linux-gnu/libc.so.6)
frame #4: <unknown function> + 0x6f7a (0x7f8a6bb82f7a in /lib/x86_64-linux-gnu/libffi.so.8)
<omitting python frames>
frame #18: __libc_start_main + 0x85 (0x7f8a6c045305 in /lib/x86_64-linux-gnu/libc.so.6)

SIGSEGV(11), PID: 6272, Thread 6273:
 frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8f (0x7f8a69d90c4f in /venv/torch/lib/libc10.so)
frame #1: <unknown function> + 0x3c050 (0x7f8a6c05a050 in /lib/x86_64-linux-gnu/libc.so.6)
frame #2: <unknown function> + 0x85f16 (0x7f8a6c0a3f16 in /lib/x86_64-linux-gnu/libc.so.6)
frame #3: pthread_cond_wait + 0x1e8 (0x7f8a6c0a65d8 in /lib/x86_64-linux-gnu/libc.so.6)

Fatal Python error: Segmentation fault
"""


def test_torch_backtrace_gives_the_faulting_frame_not_the_handlers():
    assert forensics.torch_fault_frames(TORCH_BACKTRACE) == [(6272, "SIGSEGV", "libc.so.6 (+0x156219)")]
    named = TORCH_BACKTRACE.replace("<unknown function> + 0x156219", "__strlen_avx2 + 0x19")
    assert forensics.torch_fault_frames(named)[0][2] == "libc.so.6 (__strlen_avx2+0x19)"


# Kernel lines in the kernel's own format (not produced here: see the module docstring).
KERNEL = [
    "python[1234]: segfault at 0 ip 00007f8a6c174219 sp 00007ffd5c3e1a48 error 4 in libc.so.6[7f8a6c045000+155000]"
    " likely on CPU 1 (core 1, socket 0)",
    "python[2345]: segfault at 8 ip 00007f8a6c174219 sp 00007ffd5c3e1a48 error 4 in libc.so.6[156219,7f8a6c01e000+155000]",
    "traps: python[3456] general protection fault ip:7f00deadbeef sp:7ffd00000000 error:0 in libcuda.so.1[7f00de000000+2000000]",
    "Out of memory: Killed process 4567 (python) total-vm:9361640kB, anon-rss:7884120kB, file-rss:0kB, shmem-rss:0kB,"
    " UID:0 pgtables:15876kB oom_score_adj:0",
    "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,"
    "task=python,pid=5678,uid=1000",
    "Memory cgroup out of memory: Killed process 6789 (pt_data_worker) total-vm:1048576kB, anon-rss:524288kB",
]


@pytest.mark.parametrize(
    "pid, place",
    [
        (1234, "libc.so.6 (ip 0x00007f8a6c174219, segfault at 0)"),
        (2345, "libc.so.6 (+0x156219)"),
        (3456, "libcuda.so.1 (ip 0x7f00deadbeef, general protection fault)"),
        (9999, ""),
    ],
)
def test_kernel_fault_lines(pid, place):
    assert forensics.kernel_fault_place(KERNEL, {pid}) == place


@pytest.mark.parametrize(
    "pid, start",
    [
        (4567, "Out of memory: Killed process 4567 (python)"),
        (5678, "oom-kill:constraint=CONSTRAINT_NONE"),
        (6789, "Memory cgroup out of memory: Killed process 6789 (pt_data_worker)"),
        (1234, ""),
    ],
)
def test_kernel_oom_lines(pid, start):
    found = forensics.kernel_oom_kill(KERNEL, {pid})
    assert found.startswith(start) and bool(found) == bool(start)


def test_a_sigkill_from_the_oom_killer_is_oom_else_a_crash():
    ev = Evidence(pid=1, started=0.0)
    verdict = Verdict(Outcome.CRASH, "SIGKILL", "killed by SIGKILL")
    oom, where = forensics.refine(verdict, Evidence(pid=4567, started=0.0), kernel_log=lambda _t: KERNEL)
    assert (oom.outcome, oom.signal) == (Outcome.OOM, "SIGKILL")
    assert oom.error.startswith("killed by the kernel's OOM killer: Out of memory: Killed process 4567 (python)")
    # A worker named in the main process's report counts as well.
    worker = Verdict(
        Outcome.WORKER_CRASH, "SIGKILL", "RuntimeError: DataLoader worker (pid 6789) is killed by signal: Killed."
    )
    assert forensics.refine(worker, ev, kernel_log=lambda _t: KERNEL)[0].outcome == Outcome.OOM
    assert forensics.refine(verdict, ev, kernel_log=lambda _t: KERNEL)[0] == verdict


def test_the_cells_memory_cgroup_counting_an_oom_kill_makes_it_oom(tmp_path):
    # A copy of a cgroup v2 memory.events file; the host's cgroups are only ever read.
    events = tmp_path / "memory.events"
    events.write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 0\n")
    ev = Evidence(pid=1, started=0.0, oom_counter=(str(events), 0))
    verdict = Verdict(Outcome.CRASH, "SIGKILL", "killed by SIGKILL")
    assert forensics.refine(verdict, ev, kernel_log=lambda _t: [])[0] == verdict
    events.write_text("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n")
    oom = forensics.refine(verdict, ev, kernel_log=lambda _t: [])[0]
    assert oom.outcome == Outcome.OOM and "counted 1 oom_kill" in oom.error


def test_this_process_memory_cgroup_is_found_with_its_oom_kill_count():
    memory_v2 = (
        os.path.exists("/sys/fs/cgroup/cgroup.controllers")
        and "memory" in open("/sys/fs/cgroup/cgroup.controllers").read().split()
    )
    if not (memory_v2 or os.path.isdir("/sys/fs/cgroup/memory")):
        pytest.skip("this host mounts no memory cgroup")
    found = cgroup_oom_counter(os.getpid())
    assert found is not None
    path, count = found
    # The file's own folder lists this process: it is this process's cgroup, not some other one.
    with open(os.path.join(os.path.dirname(path), "cgroup.procs")) as f:
        assert str(os.getpid()) in f.read().split()
    with open(path) as f:
        assert f"oom_kill {count}" in f.read().splitlines()


# faulthandler dumps of main threads at the other usual waits. No GPU or NCCL here: these stacks are
# written out in faulthandler's format with torch's real file and function names.
C10D = """Current thread 0x00007f5ef460fb80 (most recent call first):
  File "/venv/site-packages/torch/distributed/distributed_c10d.py", line 2950 in all_reduce
  File "/venv/site-packages/torch/distributed/c10d_logger.py", line 81 in wrapper
  File "/home/u/train.py", line 40 in step
"""
CUDA = """Current thread 0x00007f5ef460fb80 (most recent call first):
  File "/venv/site-packages/torch/cuda/__init__.py", line 1083 in synchronize
  File "/home/u/train.py", line 41 in step
"""


@pytest.mark.parametrize(
    "dump, wait",
    [
        # the backend is not in a Python stack: NCCL or gloo, the program's call that waits is named
        (C10D, "waits in c10d all_reduce (distributed_c10d.py:2950) from step (train.py:40)"),
        (
            C10D.replace("all_reduce", "barrier"),
            "waits in c10d barrier (distributed_c10d.py:2950) from step (train.py:40)",
        ),
        (CUDA, "waits in CUDA synchronize (__init__.py:1083)"),
        (CUDA.replace("synchronize", "poll"), "in step (train.py:41)"),
    ],
)
def test_the_usual_waits_are_recognised(dump, wait):
    threads = stacks.parse_faulthandler(dump)
    assert stacks.main_wait(stacks.main_thread(threads, 1)) == wait


# Run inside a new pid namespace: its first children take the namespace's last pids, the next ones wrap
# round to the bottom, as on the CI host whose DataLoader workers got smaller pids than their ranks.
_WRAPPED_TREE = """
import os, subprocess, sys
from crashmatrix.verdict import forensics
with open("/proc/sys/kernel/pid_max") as f:
    top = int(f.read())
with open("/proc/sys/kernel/ns_last_pid", "w") as f:
    f.write(str(top - 3))
children = [subprocess.Popen(["sleep", "60"]) for _ in range(4)]  # top-2, top-1, then wrapped
try:
    print([p.pid for p in children])
    print(forensics._in_start_order({p.pid for p in children}, children[0].pid))
finally:
    for p in children:
        p.kill()
"""


def test_stacks_follow_start_order_when_pids_wrap_round():
    """stacks.txt lists a cell's processes in the order they started, across the kernel's wrap of pids."""
    if os.geteuid() != 0 or subprocess.run(["unshare", "--pid", "--fork", "true"], capture_output=True).returncode:
        pytest.skip("a private pid namespace needs root and unshare")
    done = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", _WRAPPED_TREE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    started, ordered = (eval(line) for line in done.stdout.splitlines())
    assert started[2] < started[1], started  # the truth: the kernel wrapped between the second and third child
    assert ordered == started


def test_a_ranks_own_process_heads_its_helpers_in_stacks():
    from crashmatrix.verdict.straggler import RankOf

    root, rank0, worker0, rank1 = 900, 901, 300, 902  # worker0 started after the wrap
    ranks = {rank0: RankOf(0, True), worker0: RankOf(0, False), rank1: RankOf(1, True)}
    started = {rank0: 1, rank1: 2, worker0: 3}
    pids = [worker0, rank1, root, rank0]
    pids.sort(key=lambda p: forensics._stacks_place(p, root, ranks.get(p), started.get(p, 0)))
    assert pids == [root, rank0, worker0, rank1]
