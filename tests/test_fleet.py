"""Fleets (issue 34): the same matrix on every node of a real two-node Slurm (n1, n2 on this host), and
runs from three "machines" compared.

What makes a machine differ here is real: two builds of a small package (examples/fleet/builds), fleetlib
0.9.0 and 0.0.1, whose 0.0.1 kills the process that calls it (SIGBUS in checksum(), SIGSEGV in load(2)). n2's TaskProlog puts
0.0.1 first on its tasks' PYTHONPATH, the way a node with another build of a library would; the cells'
own fingerprint (env-n2.json: the packages of their interpreter, asked on the node) shows it.
"""

import json
import os
import signal
import subprocess
import sys
import time
from xml.etree import ElementTree

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # a real two-node Slurm cluster

CHECKSUM = "import fleetlib\nfleetlib.checksum()\n"
LOADER = """\
import os, sys, time
import fleetlib
args = dict(a.split("=", 1) for a in sys.argv[1:])
hold = os.path.join(os.environ["WORK"], "release")
if args.get("hold") == "true" and os.environ.get("SLURMD_NODENAME") == "n1" and not os.path.exists(hold):
    open(os.path.join(os.environ["WORK"], "holding"), "w").close()
    time.sleep(300)
fleetlib.load(int(args["num_workers"]))
"""


# Two builds of fleetlib as pip leaves them (the module and its dist-info, which importlib.metadata reads).
BUILDS = os.path.join(ROOT, "examples", "fleet", "builds")


def matrix(path, program, python, axes, executor=""):
    """A matrix whose cells run `program` under `python`: a venv without torch, so that fingerprinting
    it (on the controller, and on each node) takes milliseconds, not torch's import."""
    path.write_text(
        f"name: fleet\ncommand: [python, {program}]\naxes:\n  python: [{python}]\n"
        + "".join(f"  {k}: {v}\n" for k, v in axes.items())
        + f"timeout: 60\nexecutor: {{partition: debug, poll_s: 0.2, cells_per_job: 4{executor}}}\n"
    )
    return path


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("builds")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", root / "venv"], check=True)
    (root / "extra" / "otherlib").mkdir(parents=True)
    (root / "extra" / "otherlib-1.0.dist-info").mkdir()
    (root / "extra" / "otherlib-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: otherlib\nVersion: 1.0\n"
    )
    return {
        "python": str(root / "venv" / "bin" / "python"),
        "good": os.path.join(BUILDS, "good"),
        "bad": os.path.join(BUILDS, "bad"),
        "extra": str(root / "extra"),
    }


def explained(run_dir, cwd):
    proc = crashmatrix("explain", run_dir, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


# --- runs from three machines, compared (no Slurm) --------------------------------------------------


def test_compare_three_machines_names_the_odd_one_with_its_difference(builds, tmp_path):
    """A and B agree, C crashes under num_workers=2. B differs from A too (another package, a thread
    count), but not in a way that goes with the outcome: only C's fleetlib is named."""
    program = tmp_path / "loader.py"
    program.write_text(LOADER)
    path = matrix(
        tmp_path / "m.yaml", program, builds["python"], {"num_workers": "[0, 2]", "pin_memory": "[false, true]"}
    )
    machines = {
        "A": {"PYTHONPATH": builds["good"]},
        "B": {"PYTHONPATH": os.pathsep.join([builds["good"], builds["extra"]]), "OMP_NUM_THREADS": "3"},
        "C": {"PYTHONPATH": builds["bad"]},
    }
    for name, env in machines.items():
        proc = crashmatrix("run", path, "--out", name, cwd=tmp_path, env={**env, "WORK": str(tmp_path)})
        assert proc.returncode == 0, proc.stderr
    out = crashmatrix("compare", "A", "B", "C", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    section = out.stdout.split("## Machines whose outcomes agree\n\n")[1].split("\n\n")[0].splitlines()
    assert section == [
        "- A, B: the same outcome in every cell",
        "- C: odd one out, 2 cells differ from A, B; C differs from A, B in: packages fleetlib 0.0.1 (others 0.9.0)",
    ]
    # the fields that differ but do not go with the outcome are still in the full tables, apart
    assert "otherlib" in out.stdout and "env.OMP_NUM_THREADS" in out.stdout
    data = json.loads(crashmatrix("compare", "A", "B", "C", "--format", "json", cwd=tmp_path).stdout)
    assert [(g["runs"], g["odd"], g["cells"]) for g in data["machines"]] == [(["A", "B"], False, 0), (["C"], True, 2)]
    assert data["machines"][1]["apart"] == [{"field": "packages fleetlib", "value": "0.0.1", "others": ["0.9.0"]}]


# --- a fleet on the two-node Slurm ------------------------------------------------------------------


def test_each_node_without_slurm_or_with_a_node_slurm_lacks_is_one_line_exit_2(slurm_cluster2, builds, tmp_path):
    program = tmp_path / "c.py"
    program.write_text(CHECKSUM)
    path = matrix(tmp_path / "m.yaml", program, builds["python"], {"a": "[0, 1]"})
    env = {**slurm_cluster2.env, "PYTHONPATH": builds["good"]}
    for args, said in [
        (["--each-node"], "--each-node: only with --executor slurm"),
        (["--executor", "slurm", "--each-node", "--nodelist", "n[1-3]"], "--nodelist n[1-3]: Slurm does not know n3"),
        (["--executor", "slurm", "--nodelist", "n1"], "--nodelist: goes with --each-node"),
    ]:
        proc = crashmatrix("run", path, "--out", tmp_path / "run", *args, cwd=tmp_path, env=env)
        assert proc.returncode == 2 and proc.stderr.startswith(f"crashmatrix: {said}"), proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
        assert not (tmp_path / "run").exists()  # nothing written, so no job was sent either
    local = matrix(tmp_path / "local.yaml", program, builds["python"], {"a": "[0, 1]"}, ", each_node: true")
    proc = crashmatrix("run", local, "--out", tmp_path / "run", cwd=tmp_path, env=env)
    assert proc.returncode == 2 and "executor.each_node: only with --executor slurm" in proc.stderr, proc.stderr


@pytest.fixture(scope="module")
def fleet(slurm_cluster2, builds, tmp_path_factory):
    """Two fleets at once on n1 and n2 (n2's tasks get fleetlib 0.0.1): 4 cells whose program fails with
    0.0.1 whatever its values, and 4 whose program fails with it only under num_workers=2."""
    work = tmp_path_factory.mktemp("fleet")
    (work / "checksum.py").write_text(CHECKSUM)
    (work / "loader.py").write_text(LOADER)
    (work / "release").write_text("")
    prolog = work / "n2-prolog"
    prolog.write_text(f"#!/bin/sh\necho export PYTHONPATH={builds['bad']}:{ROOT}\n")
    prolog.chmod(0o755)
    runs = {
        "every": (
            matrix(work / "every.yaml", work / "checksum.py", builds["python"], {"a": "[0, 1]", "b": "[x, y]"}),
            [],
        ),
        "workers": (
            matrix(
                work / "workers.yaml",
                work / "loader.py",
                builds["python"],
                {"num_workers": "[0, 2]", "pin_memory": "[false, true]"},
            ),
            ["--nodelist", "n[1-2]"],
        ),
        "capped": (work / "every.yaml", ["--max-failures", "1"]),
        "hunt": (work / "workers.yaml", ["--jobs", "4"]),
    }
    env = {**os.environ, **slurm_cluster2.env, "PYTHONPATH": f"{ROOT}:{builds['good']}", "WORK": str(work)}
    slurm_cluster2.set_task_prolog("n2", prolog)
    try:
        procs = {
            name: subprocess.Popen(
                [sys.executable, "-m", "crashmatrix", "hunt" if name == "hunt" else "run", path]
                + ["--out", str(work / name)]
                + ["--executor", "slurm", "--each-node", *extra],
                cwd=work,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name, (path, extra) in runs.items()
        }
        outputs = {name: proc.communicate(timeout=240) for name, proc in procs.items()}
        capped_rows = rows_of(work / "capped")
        resumed = crashmatrix("run", "--resume", work / "capped", "--executor", "slurm", cwd=work, env=env)
    finally:
        slurm_cluster2.set_task_prolog("n2", None)
    for name, proc in procs.items():
        assert proc.returncode == 0, outputs[name]
    assert resumed.returncode == 0, resumed.stderr
    stdout = {name: out for name, (out, _err) in outputs.items()}
    return work, dict(stdout, resumed=resumed.stdout), capped_rows


def test_a_node_that_fails_every_cell_is_named_with_what_sets_it_apart(fleet):
    work, stdout, _capped = fleet
    rows = rows_of(work / "every")
    assert sorted((r["a"], r["b"], r["node"], r["outcome"], r["signal"]) for r in rows) == [
        (a, b, node, *(("pass", "") if node == "n1" else ("crash", "SIGBUS")))
        for a in "01"
        for b in "xy"
        for node in ("n1", "n2")
    ]
    # the cells' own axes are cleared: the node alone holds for every failure, then what n2 has and n1 lacks
    lines = explained(work / "every", work)
    assert lines[:2] == [
        "crash SIGBUS when node=n2 (4 of 4 matching)",
        "n2 differs from the passing node n1 in: packages fleetlib 0.0.1 (others 0.9.0)",
    ]
    assert not any("a=" in line or "b=" in line for line in lines)
    for said in (stdout["every"], (work / "every" / "summary.md").read_text()):
        assert "- crash SIGBUS when node=n2 (4 of 4 matching)\n- n2 differs from the passing node n1 in:" in said
    assert (
        "n2 differs from the passing node n1 in: packages fleetlib 0.0.1"
        in (work / "every" / "report.html").read_text()
    )
    # each node's fingerprint, as its own job found it
    nodes = json.loads((work / "every" / "env.json").read_text())["nodes"]
    assert {n: f["node"] for n, f in nodes.items()} == {"n1": "n1", "n2": "n2"}
    assert {n: next(iter(f["interpreters"].values()))["packages"]["fleetlib"] for n, f in nodes.items()} == {
        "n1": "0.9.0",
        "n2": "0.0.1",
    }
    junit = ElementTree.fromstring(crashmatrix("report", work / "every", "--format", "junit", cwd=work).stdout)
    cases = {case.get("name"): case.find("failure") is not None for case in junit.iter("testcase")}
    assert len(cases) == 8 and sorted(" node=n2 " in name for name, failed in cases.items() if failed) == [True] * 4


def test_a_failure_on_one_node_under_one_value_names_both(fleet):
    work, _stdout, _capped = fleet
    failing = sorted(
        (r["node"], r["num_workers"], r["signal"]) for r in rows_of(work / "workers") if r["outcome"] != "pass"
    )
    assert failing == [("n2", "2", "SIGSEGV"), ("n2", "2", "SIGSEGV")]
    lines = explained(work / "workers", work)
    # a failure that needs a node is the machine's: no bisect of the settings here reproduces it
    assert not any("axes that matter" in line for line in lines)
    entry = json.loads(crashmatrix("explain", work / "workers", "--json", cwd=work).stdout)[0]
    assert entry["conditions"] == {"node": "n2", "num_workers": "2"}
    assert entry["nodes_apart"] == [{"field": "packages fleetlib", "value": "0.0.1", "others": ["0.9.0"]}]
    assert lines[:2] == [
        "crash SIGSEGV when node=n2 and num_workers=2 (2 of 2 matching)",
        "n2 differs from the passing node n1 in: packages fleetlib 0.0.1 (others 0.9.0)",
    ]


def test_hunt_with_each_node_treats_the_node_as_an_axis(fleet):
    work, stdout, _capped = fleet
    (cause,) = json.loads((work / "hunt" / "hunt.json").read_text())["causes"]
    assert cause["conditions"] == {"node": "n2", "num_workers": "2"}
    assert (cause["outcome"], cause["signal"]) == ("crash", "SIGSEGV")
    assert "crash SIGSEGV when node=n2 and num_workers=2: fails 100% of runs there" in stdout["hunt"]


def test_resolve_says_the_fix_is_the_machine_and_recommends_from_the_others(fleet):
    work, _stdout, _capped = fleet
    proc = crashmatrix("resolve", work / "workers", cwd=work)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (
        "machine: crash SIGSEGV when node=n2 and num_workers=2 (2 of 2 matching): the fix is a machine, not a"
        " setting: exclude n2, or make it match the others in: packages fleetlib 0.0.1 (others 0.9.0)"
    )
    # what runs instead is read from n1's rows, where every configuration passed
    assert lines[1] == "the rest from the other nodes (n1):" and lines[2].startswith("run instead: ")
    machines = json.loads((work / "workers" / "resolution.json").read_text())["machines"]
    assert [(m["conditions"], m["nodes"]) for m in machines] == [({"node": "n2", "num_workers": "2"}, ["n2"])]


def test_max_failures_stops_only_the_failing_node_and_resume_completes_it(fleet):
    work, stdout, capped_rows = fleet
    # n2's job started no run after its first failure; n1 ran all of its own
    assert sorted((r["node"], r["outcome"]) for r in capped_rows) == [("n1", "pass")] * 4 + [("n2", "crash")]
    assert "stopped early on n2 (--max-failures counts per node) after 1 failing runs" in stdout["capped"]
    assert "= 8 runs, 5 already done" in stdout["resumed"]
    assert (
        sorted((r["node"], r["outcome"]) for r in rows_of(work / "capped"))
        == [("n1", "pass")] * 4 + [("n2", "crash")] * 4
    )


def test_rerun_failing_runs_each_failing_cell_again_on_its_node_only(fleet, slurm_cluster2):
    """After the fixture n2's TaskProlog is gone (the node "fixed"): the rerun runs n2's 4 cells, not n1's."""
    work, _stdout, _capped = fleet
    env = {**slurm_cluster2.env, "PYTHONPATH": f"{ROOT}:{BUILDS}/good", "WORK": str(work)}
    proc = crashmatrix(
        "rerun", work / "every", "--failing", "--executor", "slurm", "--out", work / "again", cwd=work, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted((r["a"], r["b"], r["node"], r["outcome"]) for r in rows_of(work / "again")) == [
        (a, b, "n2", "pass") for a in "01" for b in "xy"
    ]


def test_a_node_job_killed_and_the_controller_killed_mid_fleet_lose_nothing(slurm_cluster2, builds, tmp_path):
    """The controller is SIGKILLed while n1's job holds a cell; that job is then cancelled (scancel -w n1),
    n2's runs end on their own. --resume records what n2 wrote and runs again only what n1 never finished."""
    program = tmp_path / "loader.py"
    program.write_text(LOADER)
    path = matrix(tmp_path / "m.yaml", program, builds["python"], {"num_workers": "[0]", "hold": "[false, true]"})
    env = {**os.environ, **slurm_cluster2.env, "PYTHONPATH": f"{ROOT}:{builds['good']}", "WORK": str(tmp_path)}
    argv = [sys.executable, "-m", "crashmatrix", "run"]
    proc = subprocess.Popen(
        argv + [str(path), "--out", str(tmp_path / "run"), "--executor", "slurm", "--each-node"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not (tmp_path / "holding").exists():  # the cell's own word that it runs on n1
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    slurm_cluster2.run("scancel", "-w", "n1")
    while slurm_cluster2.run("squeue", "-h", "-o", "%i").stdout.strip():  # n2's job ends on its own
        assert time.monotonic() < deadline
        time.sleep(0.2)
    (tmp_path / "release").write_text("")
    resumed = subprocess.run(
        argv + ["--resume", str(tmp_path / "run"), "--executor", "slurm"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "2 cells x 1 repeats x 2 nodes (n1, n2) = 4 runs, 3 already done" in resumed.stdout
    got = sorted((r["hold"], r["node"], r["outcome"]) for r in rows_of(tmp_path / "run"))
    assert got == [("false", "n1", "pass"), ("false", "n2", "pass"), ("true", "n1", "pass"), ("true", "n2", "pass")]
