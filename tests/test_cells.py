"""Real children that really die, each way, through the real command line: the row a user reads."""

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, only_cell_stdout, processes_with, rows_of, run_rows

pytestmark = pytest.mark.slow  # the failure zoo of the run, every way to die

SELFTEST = """\
name: dying
probe: fault
axes:
  mode: [pass, segv, abort, bus, ill, fpe, kill, exit3, exception, hang, hang_ignore_term, flood, setsid_grandchild, memory, nan, skip]
include:
  - {mode: memory, rlimit.as_mb: 1024}
params:
  flood_mb: 100
  alloc_mb: 4096
timeout: 6
kill_grace: 1
"""

EXPECTED = {
    "pass": ("pass", "", "0"),
    "segv": ("crash", "SIGSEGV", ""),
    "abort": ("crash", "SIGABRT", ""),
    "bus": ("crash", "SIGBUS", ""),
    "ill": ("crash", "SIGILL", ""),
    "fpe": ("crash", "SIGFPE", ""),
    "kill": ("crash", "SIGKILL", ""),
    "exit3": ("fail", "", "3"),
    "exception": ("fail", "", "1"),
    "hang": ("timeout", "", ""),
    "hang_ignore_term": ("timeout", "", ""),
    "flood": ("pass", "", "0"),
    "setsid_grandchild": ("pass", "", "0"),
    "memory": ("oom", "", "1"),
    "nan": ("nan", "", "1"),
    "skip": ("skip", "", "0"),
}


@pytest.fixture(scope="module")
def dying_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dying")
    (tmp / "dying.yaml").write_text(SELFTEST)
    out = tmp / "run"
    # The controller reports its own peak RSS at exit (its children are not counted). VmHWM, not
    # ru_maxrss: ru_maxrss survives exec, so it would count the pytest process that forked us.
    wrapper = (
        "import atexit, runpy, sys\n"
        "def hwm():\n"
        "    return next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
        "atexit.register(lambda: print('controller_maxrss_kb=%s' % hwm(), file=sys.stderr))\n"
        "sys.argv = ['crashmatrix'] + sys.argv[1:]\n"
        "runpy.run_module('crashmatrix', run_name='__main__')\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", wrapper, "run", "dying.yaml", "--out", str(out), "--jobs", "2"],
        cwd=tmp,
        env={**os.environ, "PYTHONPATH": ROOT},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = proc.communicate(timeout=300)
    rows = rows_of(out)
    return {"proc": proc, "stdout": stdout, "stderr": stderr, "rows": rows, "out": out}


def test_run_exits_0_whatever_the_cells_did(dying_run):
    assert dying_run["proc"].returncode == 0, dying_run["stderr"]
    assert "Traceback" not in dying_run["stderr"]


def test_every_cell_has_exactly_one_row(dying_run):
    modes = [r["mode"] for r in dying_run["rows"]]
    assert sorted(modes) == sorted(EXPECTED)


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_each_way_to_die_is_classified(dying_run, mode):
    row = next(r for r in dying_run["rows"] if r["mode"] == mode)
    outcome, sig, exit_code = EXPECTED[mode]
    assert (row["outcome"], row["signal"], row["exit_code"]) == (outcome, sig, exit_code), row
    assert os.path.exists(dying_run["out"] / row["log_dir"] / "stderr.log")


def test_the_telling_line(dying_run):
    rows = {r["mode"]: r for r in dying_run["rows"]}
    # faulthandler is on in every child: a crash leaves CPython's own line and a Python stack.
    assert rows["segv"]["error"] == "Fatal Python error: Segmentation fault"
    stack = (dying_run["out"] / rows["segv"]["log_dir"] / "stderr.log").read_text()
    assert "Current thread" in stack and "fault.py" in stack
    assert rows["exception"]["error"] == "RuntimeError: fault probe: an ordinary Python exception"
    assert rows["memory"]["error"] == "MemoryError"
    assert rows["hang"]["error"].startswith("timed out after 6 s")
    assert rows["nan"]["error"] == "loss is nan at step 0 (fault probe)"
    assert rows["skip"]["error"] == "fault probe: asked to skip"


def test_every_failure_has_a_place_and_those_that_print_nothing_the_call_that_ended_them(dying_run):
    rows = {r["mode"]: r for r in dying_run["rows"]}
    assert [m for m, r in rows.items() if r["outcome"] not in ("pass", "skip") and not r["where"]] == []
    # SIGKILL runs no handler and os._exit prints nothing: the cell's record of the call is the place
    assert re.fullmatch(r"probes/fault.py:\d+ in _die_by", rows["kill"]["where"]), rows["kill"]
    assert re.fullmatch(r"probes/fault.py:\d+ in _end_if_asked", rows["exit3"]["where"]), rows["exit3"]
    # and like every death by signal, signed by it: two self-inflicted signals keep their own signal
    assert rows["kill"]["signature"] == "killed_by_signal in probes/fault.py:_die_by"
    assert not list((dying_run["out"] / rows["kill"]["log_dir"]).glob(".stacks")), "records are not left behind"


def test_a_hang_that_ignores_sigterm_is_killed_after_the_grace(dying_run):
    from crashmatrix.verdict.forensics import _DUMP_WAIT_S

    row = next(r for r in dying_run["rows"] if r["mode"] == "hang_ignore_term")
    # It ignores SIGTERM: it lasts the timeout and the grace (kill_grace: 1), and no longer than the bounded
    # wait for its stacks before the kill, the grace and a loaded box's slack (9.6 s seen beside the zoo).
    assert 6.0 + 1.0 <= float(row["duration_s"]) < 6.0 + _DUMP_WAIT_S + 1.0 + 2.0, row


def test_a_setsid_grandchild_does_not_outlive_its_cell(dying_run):
    row = next(r for r in dying_run["rows"] if r["mode"] == "setsid_grandchild")
    assert row["leftovers"] == "1"
    result = (dying_run["out"] / row["log_dir"] / "result.json").read_text()
    assert "sleep 3600" in result


# A program that spawns its workers, as a DataLoader with multiprocessing_context="spawn" does: multiprocessing
# also starts its resource tracker, which outlives the main process by a moment by design. The workers are
# stdlib's own (a DataLoader's are these same processes, and each would import torch again: 3 torch imports a
# cell on a CPU-bound suite). With mode=orphan the program also starts a child it never waits for, which would
# live on for an hour.
SPAWNING_APP = """\
import multiprocessing
import subprocess
import sys


def main():
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        print("sum", sum(pool.map(abs, range(8))))
    if "mode=orphan" in sys.argv[1:]:
        subprocess.Popen(["sleep", "3600"])


if __name__ == "__main__":
    main()
"""


def test_multiprocessing_helpers_are_ended_but_not_counted_and_an_orphan_is(tmp_path, write):
    write("app.py", SPAWNING_APP)
    path = write("m.yaml", "name: kept\ncommand: [python, app.py]\naxes:\n  mode: [workers, orphan]\ntimeout: 120\n")
    rows = {r["mode"]: r for r in run_rows(path, tmp_path)}
    assert [r["outcome"] for r in rows.values()] == ["pass", "pass"], rows
    assert rows["workers"]["leftovers"] == "0", rows["workers"]
    assert rows["orphan"]["leftovers"] == "1", rows["orphan"]
    kept = json.loads((tmp_path / "run" / rows["orphan"]["log_dir"] / "result.json").read_text())["leftovers"]
    assert len(kept) == 1 and kept[0].endswith("sleep 3600"), kept
    # The resource tracker was ended all the same: nothing of the run is left.
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []


def test_no_process_of_the_run_is_left(dying_run):
    assert processes_with(f"CRASHMATRIX_RUN_DIR={dying_run['out']}") == []


def test_a_flood_goes_to_the_log_not_the_controllers_memory(dying_run):
    row = next(r for r in dying_run["rows"] if r["mode"] == "flood")
    assert os.path.getsize(dying_run["out"] / row["log_dir"] / "stdout.log") == 100 * 1024 * 1024
    peak_kb = int(dying_run["stderr"].split("controller_maxrss_kb=")[1].split()[0])
    assert peak_kb < 100 * 1024, f"the controller's peak RSS was {peak_kb} kB"


def test_the_console_shows_progress_and_a_summary(dying_run):
    out = dying_run["stdout"]
    assert "[16/16]" in out
    assert "| crash" in out and "| SIGSEGV" in out
    summary = (dying_run["out"] / "summary.md").read_text()
    assert "## Failing cells" in summary and "SIGBUS" in summary


def test_an_external_command_gets_values_verbatim_and_no_shell(tmp_path, write):
    script = write("show_args.py", "import sys, os\nprint(repr(sys.argv[1:]))\nprint(os.environ.get('MODE_ENV'))\n")
    path = write(
        "m.yaml",
        f"""\
name: ext
command: [python, {script}]
params:
  text: "a b; echo $HOME `id` *"
axes:
  flag: [true]
  env.MODE_ENV: ["$(whoami)"]
""",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = only_cell_stdout(tmp_path / "run").splitlines()
    assert out == ["['text=a b; echo $HOME `id` *', 'flag=true']", "$(whoami)"]


def test_a_program_that_cannot_be_launched_is_an_error_row(tmp_path, write):
    # It exists (a missing one is bad input before any cell) but is not executable: exec fails per cell.
    program = write("program", "#!/bin/sh\n")
    path = write("m.yaml", f"name: e\ncommand: [{program}]\naxes:\n  x: [1]\n")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "error" and program in row["error"]


def test_strict_exits_1_when_a_cell_fails(tmp_path, write):
    path = write("m.yaml", "name: s\nprobe: fault\naxes:\n  mode: [pass, exit3]\n")
    assert crashmatrix("run", path, "--out", tmp_path / "a", "--strict", cwd=tmp_path).returncode == 1
    path = write("m2.yaml", "name: s\nprobe: fault\naxes:\n  mode: [pass, skip]\n")
    assert crashmatrix("run", path, "--out", tmp_path / "b", "--strict", cwd=tmp_path).returncode == 0


def test_secrets_in_the_environment_are_written_nowhere(tmp_path, write):
    path = write(
        "m.yaml",
        """\
name: sec
probe: fault
env: {DB_PASSWORD: hunter2-in-matrix}
axes:
  mode: [pass, exception]
""",
    )
    secret_env = {"WANDB_API_KEY": "sk-live-1234567890", "HF_TOKEN": "hf_abcdefabcdef", "CUDA_VISIBLE_DEVICES": ""}
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path, env=secret_env)
    assert proc.returncode == 0, proc.stderr
    proc_env = crashmatrix("env", "--json", cwd=tmp_path, env=secret_env)
    written = proc.stdout + proc_env.stdout
    for root, _dirs, files in os.walk(tmp_path / "run"):
        for name in files:
            written += open(os.path.join(root, name), errors="replace").read()
    for secret in ("sk-live-1234567890", "hf_abcdefabcdef", "hunter2-in-matrix"):
        assert secret not in written
    assert "CUDA_VISIBLE_DEVICES" in proc_env.stdout  # the filter keeps what matters


def test_inject_applies_knobs_to_an_unmodified_script_and_its_spawned_workers(tmp_path, write):
    script = write(
        "train.py",
        """\
import multiprocessing as mp, resource, sys

def report(tag):
    # get_start_method(): the method its processes get (allow_none=True would say None, as alone: the
    # knob is the default, left for the program to fix)
    print(tag, mp.get_start_method(), resource.getrlimit(resource.RLIMIT_NOFILE)[0], flush=True)

if __name__ == "__main__":
    report("main")
    p = mp.Process(target=report, args=("worker",))
    p.start(); p.join()
""",
    )
    path = write(
        "m.yaml",
        f"""\
name: inj
command: [python, {script}]
pass_params: none
inject: true
axes:
  start_method: [spawn, forkserver]
  rlimit.nofile: [200]
""",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    outs = sorted(
        (tmp_path / "run" / "cells" / c / "stdout.log").read_text() for c in os.listdir(tmp_path / "run" / "cells")
    )
    assert outs == ["main forkserver 200\nworker forkserver 200\n", "main spawn 200\nworker spawn 200\n"]


def test_gpus_gives_each_running_cell_its_own_device(tmp_path, write):
    # No GPU here: what is checked is the assignment itself, which needs none. Each cell holds its
    # GPU until a file appears that the last-starting cell writes, so all three overlap for real.
    script = write(
        "gpu.py",
        """\
import os, sys, time
i = int(sys.argv[1].split("=")[1])
open(f"started-{os.environ['CUDA_VISIBLE_DEVICES']}", "w").close()
while len([f for f in os.listdir(".") if f.startswith("started-")]) < 3:
    time.sleep(0.01)
print(os.environ["CUDA_VISIBLE_DEVICES"])
""",
    )
    path = write("m.yaml", f"name: g\ncommand: [python, {script}]\naxes:\n  i: [0, 1, 2, 3, 4, 5]\ntimeout: 60\n")
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--gpus", "0,1,2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(tmp_path / "run")
    assert [r["outcome"] for r in rows] == ["pass"] * 6
    assert sorted(r["gpu"] for r in rows[:3]) == ["0", "1", "2"]


def test_a_secret_in_the_matrix_env_is_not_written_and_resume_still_passes_it(tmp_path, write):
    script = write("show.py", "import os\nprint(os.environ.get('SERVICE_TOKEN'), os.environ.get('max_tokens'))\n")
    path = write(
        "m.yaml",
        f"""\
name: sec2
command: [python, {script}]
params: {{max_tokens: 512}}
env: {{SERVICE_TOKEN: tok-in-file-123}}
axes:
  i: [0, 1]
""",
    )
    first = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    matrix_yaml = (tmp_path / "run" / "matrix.yaml").read_text()
    assert "tok-in-file-123" not in matrix_yaml and "max_tokens: 512" in matrix_yaml
    # Lose one row, resume from the run directory alone: the secret comes from the environment now.
    csv_path = tmp_path / "run" / "results.csv"
    csv_path.write_text("".join(csv_path.read_text().splitlines(keepends=True)[:-1]))
    for d in os.listdir(tmp_path / "run" / "cells"):
        if not any(d.startswith(line.split(",")[0]) for line in csv_path.read_text().splitlines()[1:]):
            os.remove(tmp_path / "run" / "cells" / d / "result.json")
    resumed = crashmatrix("run", "--resume", tmp_path / "run", cwd=tmp_path, env={"SERVICE_TOKEN": "tok-from-env"})
    assert resumed.returncode == 0, resumed.stderr
    outs = [
        (tmp_path / "run" / "cells" / d / "stdout.log").read_text()
        for d in sorted(os.listdir(tmp_path / "run" / "cells"))
    ]
    assert sorted(outs) == ["tok-from-env None\n", "tok-in-file-123 None\n"]


def test_a_secret_cannot_be_an_axis(tmp_path, write):
    path = write("m.yaml", "name: s\nprobe: fault\naxes:\n  env.WANDB_API_KEY: [a, b]\n")
    proc = crashmatrix("show", path, cwd=tmp_path)
    assert proc.returncode == 2 and "a secret cannot be an axis" in proc.stderr


def test_inject_keeps_the_users_own_packages_and_sitecustomize(tmp_path, write):
    (tmp_path / "pkgs" / "runner").mkdir(parents=True)
    (tmp_path / "pkgs" / "runner" / "__init__.py").write_text("WHO = 'the user'\n")
    (tmp_path / "pkgs" / "sitecustomize.py").write_text("import builtins\nbuiltins.USER_SITE_RAN = True\n")
    script = write(
        "train.py",
        "import builtins, multiprocessing as mp, runner\n"
        "print(runner.WHO, getattr(builtins, 'USER_SITE_RAN', False), mp.get_start_method())\n",
    )
    path = write(
        "m.yaml",
        f"name: inj2\ncommand: [python, {script}]\npass_params: none\ninject: true\naxes:\n  start_method: [spawn]\n",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "pkgs")})
    assert proc.returncode == 0, proc.stderr
    assert only_cell_stdout(tmp_path / "run") == "the user True spawn\n"


def test_arguments_follow_the_files_order_and_stay_verbatim(tmp_path, write):
    script = write("args.py", "import sys\nprint(sys.argv[1:])\n")
    # axes before params in the file: their arguments come first; ${...} is passed through untouched,
    # with or without overrides.
    path = write(
        "m.yaml",
        f"""\
name: order
command: [python, {script}]
axes:
  b: [false]
  lst: [[1, 2]]
params:
  tmpl: "${{oc.env:NO_SUCH_VARIABLE}}"
  p1: 3
""",
    )
    for overrides in ([], ["axes.b=[true]"]):
        out = tmp_path / f"run{len(overrides)}"
        proc = crashmatrix("run", path, *overrides, "--out", out, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        b = "true" if overrides else "false"
        assert only_cell_stdout(out) == f"['b={b}', 'lst=[1,2]', 'tmpl=${{oc.env:NO_SUCH_VARIABLE}}', 'p1=3']\n"


def test_the_python_api_leaves_the_caller_as_it_was(tmp_path, write):
    # A notebook or test runner calling run_matrix must not stay a child subreaper: it would adopt the
    # daemons its other children start (a Slurm stepd, say) and never reap them.
    code = f"""
import io, sys
from crashmatrix.process import supervise
from crashmatrix.matrix.spec import load_matrix
from crashmatrix.runmatrix import run_matrix
m = load_matrix({str(tmp_path / "m.yaml")!r})
run_matrix(m, out={str(tmp_path / "run")!r}, stream=io.StringIO(), with_torch_fingerprint=False)
print(supervise.set_subreaper(False))
"""
    (tmp_path / "m.yaml").write_text("name: api\nprobe: fault\naxes:\n  mode: [pass, setsid_grandchild]\n")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT}
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    assert processes_with(f"CRASHMATRIX_RUN_DIR={tmp_path / 'run'}") == []
