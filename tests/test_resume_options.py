"""--resume DIR brings back the options a run started with (options.json), for every verb, and the command an
interrupted run prints is exactly the one that goes on with it: each test presses Ctrl-C (SIGINT to the
controller) once its cells hold, then runs the printed command as printed."""

import json
import os
import shlex
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, lines_from, rows_of

# Until the test says `resumed`, every cell writes its value into the FIFO `started` and holds; then odd
# values fail (exit 1) and even ones pass, at once.
HOLD = """\
import os, sys, time
work = os.environ["WORK"]
i = int(sys.argv[1].split("=")[1])
if not os.path.exists(os.path.join(work, "resumed")):
    fd = os.open(os.path.join(work, "started"), os.O_WRONLY)
    os.write(fd, b"%d\\n" % i)
    os.close(fd)
    time.sleep(300)
sys.exit(i % 2)
"""


def held_matrix(tmp_path, cells: int, executor: str = "") -> str:
    (tmp_path / "hold.py").write_text(HOLD)
    values = ", ".join(str(i) for i in range(cells))
    text = f"name: held\ncommand: [python, hold.py]\naxes:\n  i: [{values}]\ntimeout: 120\n{executor}"
    (tmp_path / "m.yaml").write_text(text)
    return "m.yaml"


def started_fifo(tmp_path) -> tuple[int, int]:
    """(the read end of the FIFO the cells announce themselves in, a write end that keeps it open)."""
    os.mkfifo(tmp_path / "started")
    reader = os.open(tmp_path / "started", os.O_RDONLY | os.O_NONBLOCK)
    return reader, os.open(tmp_path / "started", os.O_WRONLY | os.O_NONBLOCK)


def interrupted(tmp_path, argv: list[str], holding: int) -> tuple[str, str]:
    """Start `crashmatrix ARGV`, press Ctrl-C once `holding` cells have said they hold; (stdout, stderr)."""
    reader, keeper = started_fifo(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "crashmatrix", *argv],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": ROOT, "WORK": str(tmp_path)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        held = lines_from(reader, holding, within=120)
        assert len(held) == holding, f"cells holding: {held}"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()  # ended already, unless the test fails here
        os.close(reader)
        os.close(keeper)
    assert proc.returncode == 130, out + err
    (tmp_path / "resumed").touch()  # the cells of the resumed run end at once
    return out, err


def printed_command(text: str, before: str) -> str:
    """The command a controller printed after `before` (up to the line's end or a closing backquote)."""
    line = next(line for line in text.splitlines() if before in line)
    return line.split(before, 1)[1].split("`")[0].strip()


def as_printed(tmp_path, command: str) -> subprocess.CompletedProcess:
    """Run a printed `crashmatrix ...` command exactly as printed, where it was printed."""
    argv = shlex.split(command)
    assert argv[0] == "crashmatrix", command
    return crashmatrix(*argv[1:], cwd=tmp_path, env={"WORK": str(tmp_path)}, timeout=240)


@pytest.mark.slow
def test_a_local_run_resumed_as_printed_keeps_its_jobs_and_max_failures(tmp_path):
    matrix = held_matrix(tmp_path, 8)
    _out, err = interrupted(tmp_path, ["run", matrix, "--out", "run", "--jobs", "2", "--max-failures", "2"], 2)
    command = printed_command(err, "resume with: ")
    assert command == "crashmatrix run --resume run"
    assert json.loads((tmp_path / "run" / "options.json").read_text())["options"]["--jobs"] == 2

    resumed = as_printed(tmp_path, command)
    assert resumed.returncode == 0, resumed.stderr
    assert "; 2 at a time;" in resumed.stdout  # --jobs 2, kept
    assert "stopped early after" in resumed.stdout  # --max-failures 2, kept: 8 cells, 4 of them failing
    rows = rows_of(tmp_path / "run")
    assert 2 <= sum(r["outcome"] == "fail" for r in rows) <= 3 and len(rows) < 8

    # the early stop's own command completes the run, as it says
    completed = as_printed(tmp_path, printed_command(resumed.stdout, "failing runs; `"))
    assert completed.returncode == 0, completed.stderr
    assert "this resume completes it" in completed.stderr and "stopped early" not in completed.stdout
    assert sorted(int(r["i"]) for r in rows_of(tmp_path / "run")) == list(range(8))


def test_an_option_given_again_overrides_the_kept_one_and_says_so(tmp_path):
    matrix = held_matrix(tmp_path, 4)
    interrupted(tmp_path, ["run", matrix, "--out", "run", "--jobs", "2"], 2)
    resumed = crashmatrix("run", "--resume", "run", "--jobs", "1", cwd=tmp_path, env={"WORK": str(tmp_path)})
    assert resumed.returncode == 0, resumed.stderr
    assert "crashmatrix: --jobs 1 given: instead of the kept --jobs 2" in resumed.stderr
    assert "; 1 at a time;" in resumed.stdout
    # kept as the run started: the next resume takes --jobs 2 again
    assert json.loads((tmp_path / "run" / "options.json").read_text())["options"]["--jobs"] == 2


@pytest.mark.slow
def test_a_hunt_resumed_as_printed_keeps_its_executor(tmp_path):
    """hunt-options.json kept the executor and --resume never read it back: the hunt went on locally."""
    matrix = held_matrix(tmp_path, 4)
    out, _err = interrupted(tmp_path, ["hunt", matrix, "--out", "h", "--executor", "submitit-local"], 1)
    command = printed_command(out, "go on with: ")
    assert command == "crashmatrix hunt --resume h"
    jobs_before = set(os.listdir(tmp_path / "h" / "submitit"))

    resumed = as_printed(tmp_path, command)
    assert resumed.returncode == 0, resumed.stderr
    assert set(os.listdir(tmp_path / "h" / "submitit")) > jobs_before  # its cells went through submitit again
    assert rows_of(tmp_path / "h") and (tmp_path / "h" / "hunt.json").exists()


@pytest.mark.slow
def test_a_slurm_run_resumed_as_printed_goes_on_through_slurm(slurm_cluster, tmp_path):
    """Resumed as printed (`crashmatrix run --resume DIR`), a Slurm run went on locally."""
    matrix = held_matrix(tmp_path, 2, "executor: {partition: debug, poll_s: 0.2}\n")
    _out, err = interrupted(tmp_path, ["run", matrix, "--out", "run", "--executor", "slurm"], 2)
    command = printed_command(err, "resume with: ")
    assert command == "crashmatrix run --resume run"

    resumed = as_printed(tmp_path, command)
    assert resumed.returncode == 0, resumed.stderr
    assert "; through slurm;" in resumed.stdout
    rows = rows_of(tmp_path / "run")
    assert sorted((r["i"], r["outcome"]) for r in rows) == [("0", "pass"), ("1", "fail")]
    assert {r["host"] for r in rows} and any(n.startswith("env-") for n in os.listdir(tmp_path / "run"))


@pytest.mark.slow
def test_a_fleet_resumed_as_printed_goes_on_on_every_node(slurm_cluster, tmp_path):
    """An interrupted fleet printed `crashmatrix run --resume DIR`, which, run as printed, exited 2 (a fleet
    needs --executor slurm): its executor is kept now."""
    matrix = held_matrix(tmp_path, 2, "executor: {partition: debug, poll_s: 0.2}\n")
    _out, err = interrupted(tmp_path, ["run", matrix, "--out", "run", "--executor", "slurm", "--each-node"], 2)
    command = printed_command(err, "resume with: ")
    assert command == "crashmatrix run --resume run"

    resumed = as_printed(tmp_path, command)
    assert resumed.returncode == 0, resumed.stderr
    assert "x 1 nodes (" in resumed.stdout and "; through slurm;" in resumed.stdout
    rows = rows_of(tmp_path / "run")
    assert sorted((r["i"], r["outcome"]) for r in rows) == [("0", "pass"), ("1", "fail")]
    assert all(r["node"] for r in rows)


@pytest.mark.parametrize("verb", ["run", "hunt"])
@pytest.mark.slow
def test_resume_refuses_another_verbs_run_directory(tmp_path, verb):
    matrix = held_matrix(tmp_path, 1)
    (tmp_path / "resumed").touch()
    other = "hunt" if verb == "run" else "run"
    made = crashmatrix(other, matrix, "--out", "d", cwd=tmp_path, env={"WORK": str(tmp_path)})
    assert made.returncode == 0, made.stderr
    proc = crashmatrix(verb, "--resume", "d", cwd=tmp_path, env={"WORK": str(tmp_path)})
    assert proc.returncode == 2, proc.stderr
    assert f"crashmatrix {other} --resume d" in proc.stderr and "Traceback" not in proc.stderr
