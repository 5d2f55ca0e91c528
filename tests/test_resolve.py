"""resolve end to end: real programs that really crash, run for real, then `crashmatrix resolve RUN`.

tests/apps/loader_speed.py: fork with workers segfaults a worker; without workers it is about 3.4x slower
than forkserver with 4 workers, spawn's workers about 2.7x (every cost a sleep, so the ratios hold on a
busy machine). tests/apps/flaky_pin.py: fork with workers segfaults every time; pin_memory=true fails in
half the runs.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shlex

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real runs, reruns and reproductions

SPEED = f"""\
name: loader-speed
command: [python, {ROOT}/tests/apps/loader_speed.py]
params: {{pin_memory: false}}
axes:
  start_method: [fork, spawn, forkserver]
  num_workers: [0, 4]
exclude:                       # without workers the start method changes nothing
  - {{num_workers: 0, start_method: spawn}}
  - {{num_workers: 0, start_method: forkserver}}
repeats: 2
timeout: 60
"""
FLAKY = f"""\
name: flaky-pin
command: [python, {ROOT}/tests/apps/flaky_pin.py]
axes:
  start_method: [fork, spawn]
  num_workers: [0, 2]
  pin_memory: [false, true]
env: {{WANDB_API_KEY: in-the-matrix-0451}}
repeats: 2
timeout: 60
"""
SECRET = "s3cr3t-from-the-shell-7731"  # HF_TOKEN of the controller's environment, which the cells inherit


def resolved(run_dir) -> dict:
    with open(os.path.join(run_dir, "resolution.json")) as f:
        return json.load(f)


SAFE_DEFAULTS = {"start_method": "fork", "num_workers": 0, "pin_memory": False}  # avoids both failures


def assert_chosen_by_speed_then_defaults(data: dict) -> None:
    """The flaky app's passing configurations all take about a Python start-up, so their speeds tie and the
    one nearest the defaults is recommended. On a loaded box one start-up can lag beyond the noise band (a
    landing CI saw it): then another is recommended, and the defaults' configuration must be listed as told
    slower. Either is the rule; anything else is not."""
    if data["recommended"]["values"] == SAFE_DEFAULTS:
        return
    chosen = data["recommended"]["values"]
    assert chosen["pin_memory"] is False and (chosen["start_method"], chosen["num_workers"]) != ("fork", 2), chosen
    (default,) = [a for a in data["alternatives"] if a["values"] == SAFE_DEFAULTS]
    assert default["speed"] == "told" and default["time_ratio"] > 1, default


@pytest.fixture(scope="module")
def speed_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("speed")
    (where / "m.yaml").write_text(SPEED)
    run = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=where)
    assert run.returncode == 0, run.stderr
    before = crashmatrix("explain", "run", cwd=where)
    proc = crashmatrix("resolve", "run", cwd=where)
    assert proc.returncode == 0, proc.stderr
    return where, proc.stdout, before.stdout


@pytest.fixture(scope="module")
def flaky_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("flaky")
    (where / "m.yaml").write_text(FLAKY)
    env = {"HF_TOKEN": SECRET}
    run = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=where, env=env)
    assert run.returncode == 0, run.stderr
    proc = crashmatrix("resolve", "run", cwd=where, env=env)
    assert proc.returncode == 0, proc.stderr
    return where, proc.stdout


def test_forkserver_with_workers_is_what_to_run_and_the_safe_mode_says_its_cost(speed_run):
    where, out, explained_before = speed_run
    data = resolved(where / "run")
    assert data["recommended"]["values"] == {"start_method": "forkserver", "num_workers": 4}
    assert data["recommended"]["passed"] == data["recommended"]["runs"] == 2
    assert data["recommended"]["overrides"] == ["start_method=forkserver", "num_workers=4"]  # the program's own keys
    assert [a["values"] for a in data["alternatives"]] == [
        {"start_method": "spawn", "num_workers": 4},
        {"start_method": "fork", "num_workers": 0},
    ]
    (failure,) = data["failures"]
    assert failure["conditions"] == {"start_method": "fork", "num_workers": "4"}
    assert (failure["outcome"], failure["signal"], failure["resolve"]["named"]) == ("worker_crash", "SIGSEGV", True)
    assert data["cannot_tell"] == []
    assert data["safe_mode"]["best"]["values"] == {"start_method": "fork", "num_workers": 0}
    assert data["safe_mode"]["best"]["speed"] == "told" and data["safe_mode"]["best"]["time_ratio"] >= 2.5

    note = (where / "run" / "resolution.md").read_text()
    sections = re.findall(r"^## (.+)$", note, re.M)
    assert sections == ["Summary", "Evidence", "Causes", "What to run instead", "Bug reports"]
    safe = re.search(r"the safe mode \(num_workers=0, pin_memory=false\): (\d+\.\d)× the time", note)
    assert safe and float(safe.group(1)) >= 2.5, note  # measured 3.4
    spawn = re.search(r"\| start_method=spawn num_workers=4 +\| +[\d.]+ +\| (\d+\.\d)×", note)
    assert spawn and 1.8 <= float(spawn.group(1)) < float(safe.group(1)), note  # measured 2.7
    assert "never passed a run: their speed is unknown" in note  # fork with workers crashed every time
    assert out.startswith("run instead: start_method=forkserver num_workers=4 (2 of 2 runs passed")

    # explain pointed at resolve before it ran, and at its note after; report.html's last section links it
    assert explained_before.splitlines()[-1] == (
        "what to run instead, and a bug report per failure: `crashmatrix resolve run`"
    )
    after = crashmatrix("explain", "run", cwd=where).stdout.splitlines()[-1]
    assert after == "what to run instead, and a bug report per failure: run/resolution.md"
    html = (where / "run" / "report.html").read_text()
    assert html.index("<h2>What to run instead</h2>") > html.index("<h2>Fingerprint</h2>")
    assert '<a href="resolution.md">resolution.md</a>' in html


def test_a_flaky_cause_is_named_with_its_rate_and_the_rerun_that_settles_it_runs_as_printed(flaky_run):
    where, out = flaky_run
    data = resolved(where / "run")
    by_outcome = {f["outcome"]: f for f in data["failures"]}
    crash, flaky = by_outcome["crash"], by_outcome["fail"]
    assert crash["conditions"] == {"start_method": "fork", "num_workers": "2"} and crash["resolve"]["named"]
    assert flaky["conditions"] == {"pin_memory": "true"} and flaky["resolve"]["rate"] == 0.5
    # what it cannot tell: 2 clean runs do not rule out a failure that comes half the time
    assert_chosen_by_speed_then_defaults(data)
    assert data["recommended"]["passed"] == 2
    commands = {u["command"] for u in data["cannot_tell"]}
    assert commands == {"crashmatrix rerun run repeats=5"}
    printed = re.findall(r"to tell: `([^`]+)`", out)
    assert printed and set(printed) == commands

    env = {"HF_TOKEN": SECRET}
    rerun = crashmatrix(*shlex.split(printed[0])[1:], cwd=where, env=env)
    assert rerun.returncode == 0, rerun.stderr
    (again,) = [p for p in where.iterdir() if p.name.startswith("flaky-pin-rerun-")]
    assert len(rows_of(again)) == 8 * 5
    proc = crashmatrix("resolve", again.name, cwd=where, env=env)
    assert proc.returncode == 0, proc.stderr
    settled = resolved(again)
    assert settled["cannot_tell"] == [] and "cannot tell" not in proc.stdout
    assert_chosen_by_speed_then_defaults(settled)
    assert settled["recommended"]["passed"] == 5
    assert all(f["resolve"]["named"] for f in settled["failures"])


@pytest.mark.parametrize("which", ["speed", "flaky"])
def test_each_repro_bundle_reproduces_its_failure_from_anywhere(which, speed_run, flaky_run, tmp_path):
    where = (speed_run if which == "speed" else flaky_run)[0]
    data = resolved(where / "run")
    assert len(data["repro"]) == (1 if which == "speed" else 2)
    for n, bundle in enumerate(data["repro"]):
        folder = where / "run" / bundle["dir"]
        assert sorted(os.listdir(folder))[:3] == ["ISSUE.md", "collect_env.txt", "matrix.yaml"]
        assert "PyTorch version" in (folder / "collect_env.txt").read_text()
        issue = (folder / "ISSUE.md").read_text()
        assert re.findall(r"^## (.+)$", issue, re.M)[:3] == ["What happened", "Conditions and rate", "Telling lines"]
        assert f"crashmatrix run {folder / 'matrix.yaml'}" in issue
        run = crashmatrix("run", folder / "matrix.yaml", "--out", tmp_path / f"again{n}", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        rows = rows_of(tmp_path / f"again{n}")
        assert len(rows) == bundle["repeats"]
        kinds = {(r["outcome"], r["signal"], r["signature"]) for r in rows if r["outcome"] != "pass"}
        assert kinds == {(bundle["outcome"], bundle["signal"], bundle["signature"])}
    if which == "speed":  # the worker's death left its Python stack in stderr
        # its folder is its signature: worker_signal, then the program's frame where the worker died
        (stacks,) = (where / "run").glob("repro/worker_signal*/stacks.txt")
        assert "Fatal Python error: Segmentation fault" in stacks.read_text()


def test_no_secret_reaches_resolves_files(flaky_run):
    where, _out = flaky_run
    run_dir = where / "run"
    stderr = (run_dir / "cells" / os.listdir(run_dir / "cells")[0] / "stderr.log").read_text()
    assert SECRET in stderr and "in-the-matrix-0451" in stderr  # the program printed both
    written = [run_dir / "resolution.json", run_dir / "resolution.md"]
    for folder, _dirs, files in os.walk(run_dir / "repro"):
        written += [os.path.join(folder, name) for name in files]
    assert len(written) >= 2 + 2 * 3
    for path in written:
        text = open(path).read()
        assert SECRET not in text and "in-the-matrix-0451" not in text, path


@pytest.mark.parametrize("what", ["missing", "a file", "no results"])
def test_not_a_run_directory_is_one_line_and_exit_2(what, tmp_path):
    target = {"missing": "nowhere", "a file": "m.yaml", "no results": "empty"}[what]
    (tmp_path / "m.yaml").write_text(SPEED)
    (tmp_path / "empty").mkdir()
    proc = crashmatrix("resolve", target, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(f"crashmatrix: resolve {target}: ")


CRASHY = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["a"] == "1" and args["c"] == "2":
    os.kill(os.getpid(), signal.SIGSEGV)
"""
PLANTED = """\
name: planted
command: [python, crashy.py]
axes:
  a: [0, 1, 2]
  b: [0, 1]
  c: [0, 1, 2]
timeout: 60
"""


def test_a_hunt_cut_short_says_so_and_its_resume_runs_as_printed(tmp_path, write):
    write("crashy.py", CRASHY)
    write("m.yaml", PLANTED)
    cut = crashmatrix("hunt", "m.yaml", "--max-runs", "4", "--out", "h", cwd=tmp_path)
    assert cut.returncode == 0, cut.stderr
    proc = crashmatrix("resolve", "h", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (unsure,) = resolved(tmp_path / "h")["cannot_tell"]
    assert unsure["command"] == "crashmatrix hunt --resume h --max-runs 54" and unsure["command"] in proc.stdout

    on = crashmatrix(*shlex.split(unsure["command"])[1:], cwd=tmp_path)
    assert on.returncode == 0 and "hunt: complete" in on.stdout, on.stdout + on.stderr
    assert crashmatrix("resolve", "h", cwd=tmp_path).returncode == 0
    data = resolved(tmp_path / "h")
    assert data["source"] == "hunt" and data["cannot_tell"] == []
    (cause,) = data["failures"]
    assert cause["conditions"] == {"a": "1", "c": "2"} and cause["resolve"]["named"]
    # every run takes about as long: a tie, which goes to the cell nearest the matrix's first values
    passing = {(r["a"], r["b"], r["c"]) for r in rows_of(tmp_path / "h") if r["outcome"] == "pass"}
    nearest = min(sum(v != "0" for v in cell) for cell in passing)
    values = data["recommended"]["values"]
    assert sum(str(v) != "0" for v in values.values()) == nearest
    assert not (values["a"] == 1 and values["c"] == 2)
    # one run a configuration: its speed against the others is not told, in the note nor in the JSON
    assert data["alternatives"] and all(a["time_ratio"] is None for a in data["alternatives"])
    assert {a["speed"] for a in data["alternatives"]} == {"cannot be told yet: fewer than two timed runs a side"}
    table = (tmp_path / "h" / "resolution.md").read_text().split("### What it costs against the others")[1]
    assert "cannot be told yet (too few runs)" in table and not re.search(r"\| \d+\.\d×", table.replace("1.0×", ""))


def test_a_cost_within_noise_is_told_without_a_ratio():
    # Two configurations whose medians are 2× apart but whose runs overlap: within noise, not "2.0×".
    from collections import Counter

    from crashmatrix.resolve.configs import WALL, Config
    from crashmatrix.resolve.note import cost_text

    def config(walls):
        return Config({}, {}, "c", len(walls), len(walls), 0, Counter(), tuple(walls), ())

    fast, overlapping, slow = config([1.0, 1.2, 5.0]), config([1.1, 2.4, 6.0]), config([3.0, 3.1, 3.2])
    assert cost_text(overlapping, fast, WALL) == "as fast, within noise"
    assert cost_text(slow, config([1.0, 1.1, 1.2]), WALL) == "2.8× the time"
    # issue 37: one run a side on a busy machine read "1.8× the time", and a tie when rerun: no ratio at all
    once = "speed cannot be told yet (fewer than 2 timed runs a side)"
    assert cost_text(config([1.8]), config([1.0]), WALL) == cost_text(config([1.8]), fast, WALL) == once


def test_a_flaky_repro_counts_the_uncertainty_of_its_rate():
    # 3 failures in 4 runs: the point estimate (75%) asks 3 repeats, which at a true 50% see the failure only
    # 87.5% of the time. Under a uniform prior the rate is Beta(4, 2); the chance of no failure in r runs is
    # E[(1 - p) ** r] = 2/6 * 3/7 * 4/8 * 5/9 ...: 0.071 after 3 runs, 0.040 after 4, so 4 reach 0.95.
    from crashmatrix.bisect.failure_rate import predictive_clean_chance
    from crashmatrix.resolve.repro import repeats_to_see

    assert repeats_to_see(3, 4, 0.95) == 4
    assert 1 - predictive_clean_chance(3, 4, 3) < 0.95 <= 1 - predictive_clean_chance(3, 4, 4)
    assert repeats_to_see(1, 2, 0.95) == 9
    assert repeats_to_see(2, 2, 0.95) == 1  # every run failed: deterministic as far as anyone knows


# Pinning fails every run without workers and every other run with them (by CRASHMATRIX_REPEAT, so that the
# test sees the same runs fail every time): one cause, pin=true, at 3 of 4 runs; its worst cell 2 of 2.
HALF_PINNED = """\
import os, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["pin"] == "true" and (args["w"] == "0" or int(os.environ["CRASHMATRIX_REPEAT"]) % 2 == 0):
    raise RuntimeError("planted: pinned batch lost in transfer")
"""
HALF_PINNED_MATRIX = """\
name: half-pinned
command: [python, app.py]
axes:
  w: [0, 2]
  pin: [false, true]
repeats: 2
timeout: 60
"""


def test_a_flaky_causes_repro_carries_the_repeats_its_rate_needs_and_reproduces_elsewhere(tmp_path, write):
    write("app.py", HALF_PINNED)
    write("m.yaml", HALF_PINNED_MATRIX)
    assert crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=tmp_path).returncode == 0
    assert crashmatrix("resolve", "run", cwd=tmp_path).returncode == 0
    (bundle,) = resolved(tmp_path / "run")["repro"]
    # the cell 2 of 2, the cause 3 of 4: 4 repeats (the rate's uncertainty counted), not the cell's 1
    assert bundle["values"] == {"w": 0, "pin": True}
    assert (bundle["failing_runs"], bundle["runs"], bundle["rate"], bundle["repeats"]) == (3, 4, 0.75, 4)
    issue = (tmp_path / "run" / bundle["dir"] / "ISSUE.md").read_text()
    assert "Over all its runs the failure came in 3 of 4 (75%)" in issue
    assert "(100%)" not in issue and "confidence 0." not in issue  # 0.80 named nothing: rate and runs only
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = crashmatrix("run", tmp_path / "run" / bundle["dir"] / "matrix.yaml", "--out", "again", cwd=elsewhere)
    assert again.returncode == 0, again.stderr
    rows = rows_of(elsewhere / "again")
    assert len(rows) == 4 and {r["outcome"] for r in rows} == {"fail"}, rows


LMDB_APP = os.path.join(ROOT, "tests", "apps", "lmdb_app")


def test_issue_md_of_a_hydra_sweep_names_the_crashing_library_with_the_apps_own_command(tmp_path):
    import subprocess
    import sys
    from importlib import metadata

    # tests/apps/lmdb_app/hydra_train.py swept over an intact LMDB database and one cut short: lmdb's C
    # extension dies by SIGBUS reading past its memory map.
    train = os.path.join(LMDB_APP, "train.py")
    subprocess.run([sys.executable, train, f"prepare={tmp_path / 'intact'}", "samples=40"], check=True, timeout=120)
    os.makedirs(tmp_path / "cut")
    data = (tmp_path / "intact" / "data.mdb").read_bytes()
    (tmp_path / "cut" / "data.mdb").write_bytes(data[: len(data) // 2 // 4096 * 4096])
    sweep = tmp_path / "sweep"
    proc = subprocess.run(
        [
            sys.executable,
            os.path.join(LMDB_APP, "hydra_train.py"),
            "-m",
            f"data={tmp_path / 'intact'},{tmp_path / 'cut'}",
            "hydra/launcher=crashmatrix",
            "hydra.launcher.jobs=2",
            f"hydra.sweep.dir={sweep}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "ended crash SIGBUS" in proc.stderr, proc.stderr
    assert crashmatrix("resolve", sweep, cwd=tmp_path).returncode == 0
    (bundle,) = resolved(sweep)["repro"]
    issue = (sweep / bundle["dir"] / "ISSUE.md").read_text()
    lmdb_version = metadata.version("lmdb")
    # whose bug: a bus error reading a database cut short is the data's, not lmdb's (its maintainers do not take a
    # truncated file's crash as a bug); the library it died in named, with its version
    said = issue.splitlines()[2]
    assert said.startswith("The program's to look at first: the thread died by SIGBUS in lmdb's native code"), issue
    assert f"lmdb {lmdb_version})" in said and "truncated or rewritten while mapped" in said, said
    assert f"- lmdb: {lmdb_version} (the library on the failing stack)" in issue
    # the app's own command line, not crashmatrix's job runner
    app_command = shlex.join(
        [os.path.normpath(sys.executable), os.path.join(LMDB_APP, "hydra_train.py"), f"data={tmp_path / 'cut'}"]
    )
    assert f"Without it, the program's own command:\n\n```\n{app_command}\n```" in issue
    assert "crashmatrix.hydra.job" not in issue
    # the faulting thread's frames, lmdb's among them, and nothing a maintainer does not need
    telling = issue.split("## Telling lines")[1].split("## Where")[0]
    assert "cpython.cpython-" in telling and "<omitting python frames>" in telling
    assert "Extension modules:" not in telling and "__libc_start_main" not in telling
    assert "pthread_cond_wait" not in telling  # another thread's block
    assert 'lmdb_app/dataset.py", line' in telling


# torch's fatal-signal backtrace as torch 2.13 prints it (recorded on this machine, paths shortened): the
# faulting thread's block, where libc faulted inside a library's code, then another thread's block.
def _backtrace(library: str) -> str:
    return f"""\
SIGSEGV(11), PID: 6272, Thread 6272:
 frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8f (0x7f8a69d90c4f in /v/lib/python3.11/site-packages/torch/lib/libc10.so)
frame #1: c10::FatalSignalHandler::fatalSignalHandler(int, siginfo_t*) + 0x2da (0x7f8a69d9127a in /v/lib/python3.11/site-packages/torch/lib/libc10.so)
frame #2: <unknown function> + 0x3c050 (0x7f8a6c05a050 in /lib/x86_64-linux-gnu/libc.so.6)
frame #3: <unknown function> + 0x156219 (0x7f8a6c174219 in /lib/x86_64-linux-gnu/libc.so.6)
frame #4: <unknown function> + 0x6f7a (0x7f8a6bb82f7a in {library})
<omitting python frames>
frame #18: __libc_start_main + 0x85 (0x7f8a6c045305 in /lib/x86_64-linux-gnu/libc.so.6)

SIGSEGV(11), PID: 6272, Thread 6273:
 frame #0: c10::FatalSignalHandler::stacktraceSignalHandler(bool) + 0x8f (0x7f8a69d90c4f in /v/lib/python3.11/site-packages/torch/lib/libc10.so)
frame #1: pthread_cond_wait + 0x1e8 (0x7f8a6c0a65d8 in /lib/x86_64-linux-gnu/libc.so.6)

Fatal Python error: Segmentation fault
"""


def test_whose_bug_is_the_library_the_faulting_thread_died_in():
    from crashmatrix.resolve.culprit import culprit

    packages = {"torch": "2.13.0", "lmdb": "1.4.1"}
    torch_died = culprit(_backtrace("/v/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so"), "", packages)
    assert torch_died and torch_died.is_torch and torch_died.named() == "torch 2.13.0"
    # libc faulted, called from ctypes' libffi: no installed library's code on the stack, so no one's tracker
    assert culprit(_backtrace("/lib/x86_64-linux-gnu/libffi.so.8"), "libc.so.6 (+0x156219)", packages) is None
    # no torch backtrace (the program never imported torch): where's extension module names it
    lmdb = culprit(
        "Fatal Python error: Bus error\n", "lmdb/cpython.cpython-311-x86_64-linux-gnu.so (+0xfddb)", packages
    )
    assert lmdb and (lmdb.distribution, lmdb.version, lmdb.is_torch) == ("lmdb", "1.4.1", False)
    # an exception raised inside a package: that package, named by its path below site-packages, and
    # told as raised there (a library may raise on the program's own bad input), not as a thread that died
    raised = culprit(
        "Traceback (most recent call last):\n"
        '  File "/app/p.py", line 4, in <module>\n'
        '  File "/v/lib/python3.11/site-packages/yaml/parser.py", line 98, in parse\n'
        "yaml.parser.ParserError: while parsing a flow node\n",
        "",
        {"pyyaml": "6.0.3"},
    )
    assert raised and (raised.evidence, raised.raised) == ("yaml/parser.py", True), raised
    # the ninety-second set's counts_segv: the program's own C++ extension (built into its project) wrote past a
    # tensor, called through torch.ops: torch's dispatcher below it is no culprit, the program's code is
    own_kernel = _backtrace("/app/.torch_ext/xt_kernels/xt_kernels.so").replace(
        "<omitting python frames>",
        "frame #5: <unknown function> + 0x5c233c4 (0x7f27de0233c4 in "
        "/v/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so)\n<omitting python frames>",
    )
    assert culprit(own_kernel, "xt_kernels.so (class_counts+0x158)", packages) is None
    # ... and the same frames below an installed package's extension: that package's
    installed = own_kernel.replace("/app/.torch_ext/xt_kernels/", "/v/lib/python3.11/site-packages/xtk/")
    assert culprit(installed, "", packages).package == "xtk"
    # the ninety-fifth set's nl_yaml_deep_cloader (recorded; torch never imported, so no native backtrace): PyYAML's C
    # loader ran out of stack on a valid document nested 120000 deep, below its resolver's Python frame
    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout95", "single", "cells", "1d387769e0-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        pyyaml = culprit(f.read(), "zoo/modes/nl_yaml_deep_cloader.py:27 in load_annotation", {"pyyaml": "6.0.3"})
    # ... or of the program's own doing below it (a review's: numpy summing a view made with a wrong stride): the
    # evidence does not decide, and the report says so
    assert pyyaml is not None and pyyaml.package == "yaml" and pyyaml.undecided and not pyyaml.owns_the_bug, pyyaml
    # the ninety-fifth set's hashed_features_segv: a csr_matrix built from indices past its columns, summed in
    # scipy's sparsetools: its maintainers document the constructor as trusting its input (culprit.UNCHECKED)
    sparse = culprit(
        _backtrace("/v/lib/python3.11/site-packages/scipy/sparse/_sparsetools.cpython-311-x86_64-linux-gnu.so"),
        "",
        {"scipy": "1.17.1"},
    )
    assert sparse and sparse.distribution == "scipy" and not sparse.owns_the_bug, sparse
    assert "check_format(full_check=True)" in sparse.unchecked, sparse


def test_memory_the_program_made_and_released_is_the_programs_wherever_the_dying_lines_data_came_from():
    # the ninety-seventh held-out set's kx_worker_freed_decoder (recorded; alone: the same, 3 of 3): __getitem__ takes
    # `ptr, arr = self.decode(i)` (np.ctypeslib.as_array over a ctypes malloc), `frame = torch.from_numpy(arr)`, frees
    # ptr, and `frame...amax(1)` dies in libtorch_cpu. The report went to PyTorch's tracker: the bare address was made
    # in a method the dying line's data came through, not in the dying function
    from diagnose_agreement import _checkout_paths

    from crashmatrix.resolve.culprit import culprit

    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout97", "single", "cells", "3ca4ac5f17-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        whose = culprit(_checkout_paths(f.read()), "", {"torch": "2.13.0"})
    assert whose is not None and whose.is_torch and not whose.owns_the_bug, whose
    assert whose.handed == "zoo/modes/kx_worker_freed_decoder.py:28", whose
    # the eightieth set's mm_ctypes_munmap (recorded; alone: the same): `feats = MappedFeatures(path)`, whose __init__
    # views libc's mmap by from_address; the program munmaps it, and the eval forward on feats.tensor dies in torch
    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout80", "single", "cells", "7af7995516-r0")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        whose = culprit(_checkout_paths(f.read()), "", {"torch": "2.13.0"})
    assert whose is not None and not whose.owns_the_bug and whose.handed == "zoo/modes/mm_ctypes_munmap.py:27", whose
    # the eighty-seventh set's view_outlives_mapping (recorded r1, whose faulthandler dump survived): `with
    # MappedShard(path) as shard: feats = shard.features()` (torch.frombuffer over the class's mmap, imported from the
    # project's lifetimes/shards.py); leaving the block closes the mmap, and `feats.mean(dim=0)` dies in libtorch_cpu
    cell = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout87", "app", "cells", "515b976ab2-r1")
    with open(os.path.join(cell, "stderr.log"), encoding="utf-8") as f:
        whose = culprit(_checkout_paths(f.read()), "", {"torch": "2.13.0"})
    assert whose is not None and not whose.owns_the_bug and whose.unmapped == "lifetimes/shards.py:24", whose
    from crashmatrix.resolve.issue import _addressed

    assert "reading memory the program mapped at lifetimes/shards.py:24" in _addressed(whose, ""), whose


def test_a_library_vendored_in_the_projects_tree_is_neither_the_programs_code_nor_an_installed_ones():
    """A real cell (tests/data/vendored/README.md): a project's third_party/fastcsv/, built by the project and called
    through ctypes, dereferenced the NULL strchr gave it for a line whose closing quote the export cut."""
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    with open(os.path.join(ROOT, "tests", "data", "vendored", "fastcsv_quote.err"), encoding="utf-8") as f:
        stderr = f.read()
    where = "libfastcsv.so (fastcsv_count_fields+0x1d); loader/rows.py:11 in <listcomp>"
    whose = culprit(stderr, where, {"torch": "2.13.0"})
    assert whose is not None and (whose.distribution, whose.vendored) == ("fastcsv", "third_party/fastcsv"), whose
    assert not whose.owns_the_bug
    said = _addressed(whose, where)
    assert said.startswith("Whose bug this is, the evidence does not decide"), said
    assert "third_party/fastcsv/" in said and "loader/rows.py:11" in said and "tracker:" not in said, said
    # the same library built in the project outside a vendored folder is the program's own code, as before
    own = stderr.replace("/third_party/fastcsv/build/", "/csvnative/build/")
    assert culprit(own, where, {"torch": "2.13.0"}) is None
    # ... and so is a project that lives on a disk mounted as `external`
    mounted = own.replace("/tmp/vend/proj/", "/media/external/proj/")
    assert "/media/external/proj/" in mounted and culprit(mounted, where, {"torch": "2.13.0"}) is None


def _raised_in(library_file: str, exception: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/app/train.py", line 12, in step\n'
        f'  File "/v/lib/python3.11/site-packages/{library_file}", line 98, in check\n'
        f"{exception}\n"
    )


def test_a_library_refusing_the_programs_input_is_the_programs_to_fix():
    # Issue 52: PyTorch's maintainers close a report of cross_entropy refusing a batch of another size; the report
    # names the program's line that passed it, and no tracker.
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    error = "ValueError: Expected input batch_size (4) to match target batch_size (3)."
    whose = culprit(_raised_in("torch/nn/functional.py", error), "", {"torch": "2.13.0"}, error)
    assert whose and whose.is_torch and not whose.owns_the_bug and not whose.undecided
    told = _addressed(whose, "torch/nn/functional.py:3462 in cross_entropy; train.py:12 in step")
    assert told.startswith("The program's to fix: torch refused what the program gave it."), told
    assert "raised in torch's code (torch/nn/functional.py, torch 2.13.0)" in told
    assert told.rstrip().endswith("Look at what the program passes it at train.py:12 in step.")
    assert "tracker" not in told and "maintainers" not in told


def test_a_cython_modules_frame_is_its_librarys_code():
    # The twenty-fourth held-out set's a_csv_bad_line, run alone: pandas.read_csv of a CSV with an unquoted comma
    # raises ParserError in pandas/_libs/parsers.pyx, a frame that names its source below the package, not a path
    # below site-packages. ISSUE.md said "the failing stack shows no installed library's code" of it.
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    log = os.path.join(ROOT, "tests/zoo/recorded/heldout24/app/cells/6af0e179b8-r0/stderr.log")
    with open(log, encoding="utf-8") as f:
        stderr = f.read()
    error = "pandas.errors.ParserError: Error tokenizing data. C error: Expected 3 fields in line 7, saw 4"
    whose = culprit(stderr, "", {"pandas": "3.1.1"}, error)
    assert whose and (whose.package, whose.evidence, whose.raised) == ("pandas", "pandas/_libs/parsers.pyx", True)
    told = _addressed(whose, "pandas/_libs/parsers.pyx:4400 in raise_parser_error; lib/a_data/datasets.py:53 in f")
    assert told.startswith("The program's to fix: pandas refused what the program gave it."), told
    # a Cython frame the program called directly: the package its interpreter has installed; else nobody's
    direct = 'Traceback (most recent call last):\n  File "/app/t.py", line 3, in <module>\n'
    direct += '  File "fastlib/_core.pyx", line 9, in fastlib._core.f\nValueError: bad\n'
    assert culprit(direct, "", {"fastlib": "1.0"}, "ValueError: bad").evidence == "fastlib/_core.pyx"
    assert culprit(direct, "", {"other": "1.0"}, "ValueError: bad") is None


def test_a_library_that_says_the_bug_is_its_own_gets_the_report():
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    # TORCH_INTERNAL_ASSERT's words, as torch prints them
    error = (
        'RuntimeError: !needs_dynamic_casting INTERNAL ASSERT FAILED at "/pytorch/aten/src/ATen/native/cpu/Loops.h"'
        ":311, please report a bug to PyTorch."
    )
    whose = culprit(_raised_in("torch/_tensor.py", error), "", {"torch": "2.13.0"}, error)
    assert whose and whose.owns_the_bug and whose.admitted == "INTERNAL ASSERT FAILED"
    told = _addressed(whose, "torch/_tensor.py:98 in check; train.py:12 in step")
    assert told.startswith("For PyTorch's tracker: it says the bug is its own (`INTERNAL ASSERT FAILED`)"), told
    # another library's admission, in its own words
    error = "RuntimeError: This is a bug in Lightning, please file an issue."
    whose = culprit(_raised_in("lightning/pytorch/loops/fit_loop.py", error), "", {"lightning": "2.5.0"}, error)
    assert whose and whose.owns_the_bug and whose.distribution == "lightning"
    assert _addressed(whose, "").startswith("For the maintainers of lightning: it says the bug is its own")
    # torch's words do not make another library's refusal its bug
    error = "ValueError: please report a bug to PyTorch if this persists"
    whose = culprit(_raised_in("yaml/parser.py", error), "", {"pyyaml": "6.0.3"}, error)
    assert whose and not whose.owns_the_bug


def test_a_bug_its_maintainers_acknowledged_goes_to_their_tracker_only_where_its_frames_make_it():
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    # y_default_device_shuffle on a lent H200 (tests/zoo/HELDOUT14.md): torch.set_default_device("cuda") and
    # DataLoader(shuffle=True); RandomSampler's CPU generator meets the randperm the default device moved
    recorded = os.path.join(ROOT, "tests", "zoo", "recorded", "heldout14", "single")
    with open(os.path.join(recorded, "results.csv"), newline="") as f:
        (row, *_) = [r for r in csv.DictReader(f) if r["mode"] == "y_default_device_shuffle"]
    with open(os.path.join(recorded, row["log_dir"], "stderr.log")) as f:
        stderr = f.read()
    whose = culprit(stderr, row["where"], {"torch": "2.11.0+cu130"}, row["error"])
    assert whose and whose.owns_the_bug and whose.acknowledged == "pytorch/pytorch#110820"
    told = _addressed(whose, row["where"])
    assert told.startswith("For PyTorch's tracker: a bug its maintainers acknowledged (pytorch/pytorch#110820)"), told
    # the same words where the program made the generator and handed it over: torch's check on its input
    error = "RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'"
    whose = culprit(_raised_in("torch/_tensor.py", error), "", {"torch": "2.13.0"}, error)
    assert whose and not whose.owns_the_bug and not whose.acknowledged


def test_an_error_no_input_check_raises_leaves_whose_bug_undecided():
    from crashmatrix.resolve.culprit import culprit
    from crashmatrix.resolve.issue import _addressed

    error = "NameError: name 'warn_once' is not defined"
    whose = culprit(_raised_in("lightning/fabric/utilities/seed.py", error), "", {}, error)
    assert whose and whose.undecided and not whose.owns_the_bug
    told = _addressed(whose, "lightning/fabric/utilities/seed.py:98 in check; train.py:12 in step")
    assert told.startswith("Whose bug this is, the evidence does not decide"), told
    assert "the program's call at train.py:12 in step" in told


def test_an_uncaught_cpp_exception_is_judged_as_an_exception_not_a_native_death():
    # gloo's enforce on a collective of another size: terminate, abort, torch's backtrace in libgloo's frames
    # (inside torch's wheel). The message asks whether the program's collectives mismatch: the program's.
    from crashmatrix.resolve.culprit import culprit

    stderr = _backtrace("/v/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so")
    error = "what(): [enforce fail at pair.cc:N] op.preamble.length <= op.nbytes. Is there a collective mismatch?"
    whose = culprit(stderr, "", {"torch": "2.13.0"}, error, by_signal=True)
    assert whose and whose.is_torch and whose.raised and not whose.owns_the_bug
    # the same backtrace without C++'s last words: a death in torch's code, torch's
    died = culprit(stderr, "", {"torch": "2.13.0"}, "Fatal Python error: Segmentation fault", by_signal=True)
    assert died and died.owns_the_bug


def test_every_kind_gets_a_bundle_of_its_own_even_where_signatures_begin_alike():
    # Two globals torch.load refused (tests/data/weights-only): alike for 48 characters and more, one outcome.
    from crashmatrix.outcome import FailureKind
    from crashmatrix.resolve.repro import folder_names

    refused = "_pickle.UnpicklingError: Weights only load failed. WeightsUnpickler error: Unsupported global: GLOBAL "
    kinds = [
        FailureKind("fail", "", refused + "numpy._core.multiarray.scalar was not an allowed global by default."),
        FailureKind("fail", "", refused + "argparse.Namespace was not an allowed global by default."),
        FailureKind("crash", "SIGSEGV", "killed_by_signal"),
        FailureKind("worker_crash", "SIGSEGV", "killed_by_signal"),
        FailureKind("fail", "", "ValueError: bad batch"),
        # the forty-sixth set's: a folder named by the exception's module alone, its name cut off
        FailureKind("fail", "", 'lightning_fabric.utilities.exceptions.MisconfigurationException: The "interval" key'),
    ]
    names = folder_names(kinds)
    assert len(set(names.values())) == len(kinds), names
    assert names[kinds[0]].startswith("UnpicklingError-Weights-only-load-failed-")
    assert names[kinds[5]] == "MisconfigurationException-The-interval-key"
    assert names[kinds[2]] == "killed_by_signal-crash-SIGSEGV" and names[kinds[4]] == "ValueError-bad-batch"
    assert folder_names(kinds) == names  # the same folders when resolve runs again


def test_a_failure_of_a_known_kind_is_addressed_by_its_fix_even_where_a_library_raised_it():
    # torch.load refuses a checkpoint in torch's own code, by design: the report said "The failing stack shows no
    # installed library's code (it ended in torch/serialization.py...)", which its own parenthesis belied
    from crashmatrix.resolve.issue import _addressed
    from crashmatrix.verdict.remedies import WEIGHTS_ONLY

    where = "torch/serialization.py:1609 in load; wo.py:11 in resume"
    told = _addressed(None, where, WEIGHTS_ONLY)
    assert told.startswith("A failure of a known kind (it ended in torch/serialization.py:1609 in load), whose fix")
    assert "add_safe_globals" in told and "no installed library's code" not in told
    assert _addressed(None, "app.py:3 in main").startswith("The failing stack shows no installed library's code")
    # an exception raised at the program's own line, by its code or by compiled code it called (torch's C++ checks
    # raise from the caller's line): the program's to fix, not "no library's code" (two held-out sets' close calls)
    told = _addressed(None, "app.py:3 in main", raised=True)
    assert told.startswith("The program's to fix: the error was raised at its own line app.py:3 in main"), told


def test_an_error_the_standard_library_raised_under_a_package_is_not_said_to_have_no_library():
    # the sixty-fifth held-out set's dl_hub_state_dict_offline: torch.hub's download reached urllib, whose URLError
    # (no DNS on the node) ISSUE.md told as "the failing stack shows no installed library's code" with torch/hub.py
    # in that very stack; the raising code is the standard library's, which reports what it met
    from crashmatrix.resolve.issue import _addressed

    told = _addressed(None, "urllib/request.py:1351 in do_open; zoo/modes/hub.py:16 in main")
    assert told.startswith("The error was raised in Python's standard library (it ended in urllib/request.py"), told
    assert "no installed library's code" not in told


@pytest.mark.parametrize(
    "where",
    [
        "socket.py:274 in __getstate__; picklekit/train.py:37 in __init__",  # set 70's pk_ema_socket_deepcopy
        "dataclasses.py:1024 in _process_class; confkit2/fields.py:8 in <module>",  # set 75's aug_list_default
    ],
)
def test_a_module_at_the_standard_librarys_top_before_the_programs_frame_is_the_standard_library(where):
    from crashmatrix.resolve.issue import _addressed

    assert _addressed(None, where).startswith("The error was raised in Python's standard library")
    # a file of that name alone, with no program frame after it, may be the program's own (a `queue.py` beside it)
    assert _addressed(None, "queue.py:12 in get").startswith("The failing stack shows no installed library's code")


def test_a_worker_that_died_without_a_word_is_said_heard_of_not_ended_in():
    # a worker ended by a signal that printed nothing: forensics places it where the main's loop heard of it, and
    # the report said "(it ended in the main process heard of it at ...)"
    from crashmatrix.resolve.issue import _addressed

    heard = "the main process heard of it at zoo/modes/s_worker_cpu_limit.py:30 in main"
    told = _addressed(None, heard)
    assert told.startswith(f"The failing stack shows no installed library's code ({heard}): look first"), told
    assert "it ended in" not in told
