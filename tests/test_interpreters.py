"""The reserved axis `python` with two real venvs, and the fingerprint gathered while cells run.

The venvs are made with `python -m venv --without-pip` (no network); the package one of
them has and the other lacks is a real installed distribution: a module plus its
`*.dist-info/METADATA`, which is what importlib.metadata (and pip) read.
"""

import glob
import json
import os
import subprocess
import sys
import time

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # real interpreters fingerprinted


def make_venv(path) -> str:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return os.path.join(str(path), "bin", "python")


def install_tiny(venv, version: str) -> None:
    site = glob.glob(os.path.join(str(venv), "lib", "python*", "site-packages"))[0]
    for old in glob.glob(os.path.join(site, "tinypkg-*.dist-info")):
        os.remove(os.path.join(old, "METADATA"))
        os.rmdir(old)
    os.makedirs(os.path.join(site, f"tinypkg-{version}.dist-info"))
    with open(os.path.join(site, f"tinypkg-{version}.dist-info", "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: tinypkg\nVersion: {version}\n")
    with open(os.path.join(site, "tinypkg.py"), "w") as f:
        f.write(f"VERSION = {version!r}\n")


def installed(facts: dict) -> dict:
    """An interpreter's packages as the cells see them, less crashmatrix itself: the tests put the
    checkout on PYTHONPATH, and an editable install leaves its egg-info there."""
    return {k: v for k, v in facts["packages"].items() if k != "crashmatrix"}


@pytest.fixture
def venvs(tmp_path):
    a, b = make_venv(tmp_path / "venvA"), make_venv(tmp_path / "venvB")
    install_tiny(tmp_path / "venvA", "1.0")
    return a, b


def test_two_interpreters_cells_env_json_report_and_compare_name_the_package(tmp_path, write, venvs):
    a, b = venvs
    matrix = write(
        "m.yaml",
        f"name: two\ncommand: [python, -c, 'import tinypkg']\npass_params: none\naxes:\n  python: [{a}, {b}]\n",
    )
    run = crashmatrix("run", matrix, "--out", tmp_path / "r1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = (tmp_path / "r1" / "results.csv").read_text()
    assert f"{a},pass" in rows and f"{b},fail" in rows and "No module named 'tinypkg'" in rows
    env = json.loads((tmp_path / "r1" / "env.json").read_text())
    assert installed(env["interpreters"][a]) == {"tinypkg": "1.0"}
    assert installed(env["interpreters"][b]) == {}
    assert env["glibc"] and env["interpreters"][b]["glibc"] == env["glibc"]
    # The summary (console and report) sets the interpreters side by side.
    assert "Installed packages that differ between them" in run.stdout
    report = crashmatrix("report", tmp_path / "r1", cwd=tmp_path).stdout
    row = [line for line in report.splitlines() if line.startswith("| tinypkg")]
    assert len(row) == 1 and [c.strip() for c in row[0].split("|")[2:4]] == ["1.0", "—"]

    # venv B gets the package: the same cells again, then compare names it under B's interpreter.
    install_tiny(tmp_path / "venvB", "2.0")
    assert crashmatrix("run", matrix, "--out", tmp_path / "r2", cwd=tmp_path).returncode == 0
    text = crashmatrix("compare", tmp_path / "r1", tmp_path / "r2", cwd=tmp_path).stdout
    assert "1 of 2 cells in both runs differ" in text
    package_lines = [line for line in text.splitlines() if "| tinypkg" in line]
    assert len(package_lines) == 1 and b in package_lines[0] and "—" in package_lines[0] and "2.0" in package_lines[0]
    as_json = json.loads(
        crashmatrix("compare", tmp_path / "r1", tmp_path / "r2", "--format", "json", cwd=tmp_path).stdout
    )
    assert as_json["packages"] == [{"interpreter": b, "package": "tinypkg", "versions": {"A": None, "B": "2.0"}}]


def test_a_probe_runs_under_the_axis_interpreter_which_is_no_parameter(tmp_path, write, venvs):
    a, _b = venvs
    # The venv has no torch: the fault probe's `pass` needs none, so the child itself runs under venv A.
    matrix = write("p.yaml", f"name: p\nprobe: fault\naxes:\n  python: [{a}]\n  mode: [pass]\n")
    assert crashmatrix("run", matrix, "--out", tmp_path / "p", cwd=tmp_path).returncode == 0
    result = json.loads(next((tmp_path / "p" / "cells").glob("*/result.json")).read_text())
    assert result["outcome"] == "pass" and result["argv"][0] == a
    # An external program gets its own settings as key=value, never the interpreter.
    matrix = write(
        "c.yaml",
        f"name: c\ncommand: [python, -c, 'import sys; print(sys.argv[1:], sys.prefix)']\n"
        f"axes:\n  python: [{a}]\n  i: [1]\n",
    )
    assert crashmatrix("run", matrix, "--out", tmp_path / "c", cwd=tmp_path).returncode == 0
    out = next((tmp_path / "c" / "cells").glob("*/stdout.log")).read_text()
    assert out.strip() == f"['i=1'] {tmp_path / 'venvA'}"


@pytest.mark.parametrize(
    "make, why", [(lambda p: None, "no such file"), (lambda p: p.write_text("#!/bin/sh\n"), "not executable")]
)
def test_a_missing_or_unexecutable_interpreter_is_bad_input_before_anything_is_written(tmp_path, write, make, why):
    python = tmp_path / "envs" / "python"
    python.parent.mkdir()
    make(python)
    matrix = write("m.yaml", f"name: bad\ncommand: [python, -c, pass]\naxes:\n  python: [{sys.executable}, {python}]\n")
    out = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert matrix in out.stderr and "axes.python" in out.stderr and str(python) in out.stderr and why in out.stderr
    assert not (tmp_path / "run").exists()


def test_the_first_cell_does_not_wait_for_the_fingerprint(tmp_path, write, venvs):
    """An interpreter whose fingerprint takes seconds (as torch's import can): the cell starts at once,
    and env.json and the summary have the interpreter's answer when the run ends."""
    slow = tmp_path / "slow-python"
    slow.write_text(f'#!/bin/sh\ncase "$2" in *distributions*) sleep 2;; esac\nexec {venvs[0]} "$@"\n')
    slow.chmod(0o755)
    stamp = tmp_path / "stamp"
    matrix = write(
        "m.yaml",
        f'name: s\ncommand: [python, -c, \'import sys, time; open(sys.argv[1], "w")'
        f".write(repr(time.time()))', {stamp}]\npass_params: none\naxes:\n  python: [{slow}]\n",
    )
    t0 = time.time()
    out = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    ended = time.time()
    assert out.returncode == 0, out.stderr
    started = float(stamp.read_text())
    assert started - t0 < 2.5 and ended - t0 >= 2  # generous for a loaded machine; the fingerprint alone takes over 2 s
    facts = json.loads((tmp_path / "run" / "env.json").read_text())["interpreters"][str(slow)]
    assert facts["executable"] == venvs[0] and installed(facts) == {"tinypkg": "1.0"}
    n = len(facts["packages"])
    assert (
        f"`{slow}`: Python {facts['python']}, no torch, numpy or wandb; {n} package{'s' * (n > 1)} in all" in out.stdout
    )


def test_an_unchanged_interpreter_is_asked_once_and_a_changed_one_again(tmp_path, write, venvs):
    """The torch-importing answer is kept per interpreter: a second run does not wait for it, and
    installing a package (which changes site-packages) makes the next run ask again."""
    asked = tmp_path / "asked"
    counting = tmp_path / "counting-python"
    counting.write_text(f'#!/bin/sh\ncase "$2" in *distributions*) echo >> {asked};; esac\nexec {venvs[0]} "$@"\n')
    counting.chmod(0o755)
    matrix = write("m.yaml", f"name: c\ncommand: [python, -c, pass]\naxes:\n  python: [{counting}]\n")

    def packages_after_a_run(out: str) -> dict:
        assert crashmatrix("run", matrix, "--out", tmp_path / out, cwd=tmp_path).returncode == 0
        return installed(json.loads((tmp_path / out / "env.json").read_text())["interpreters"][str(counting)])

    assert packages_after_a_run("r1") == {"tinypkg": "1.0"} and len(asked.read_text()) == 1
    assert packages_after_a_run("r2") == {"tinypkg": "1.0"} and len(asked.read_text()) == 1
    install_tiny(tmp_path / "venvA", "2.0")
    assert packages_after_a_run("r3") == {"tinypkg": "2.0"} and len(asked.read_text()) == 2


def test_package_differences_are_added_removed_and_changed_versions_and_glibc_is_a_field():
    from crashmatrix.answers.compare import fingerprint_differences, package_differences

    def env(glibc, packages, key="/envs/x/bin/python"):
        return {"glibc": glibc, "interpreter": key, "interpreters": {key: {"packages": packages}}}

    a = env("2.35", {"torch": "2.13.0", "numpy": "2.1.0", "nvidia-cudnn-cu12": "9.1.0"})
    b = env("2.39", {"torch": "2.13.0", "numpy": "2.2.0", "wandb": "0.19.1"}, key="/other/bin/python")
    assert package_differences([a, b]) == [
        ("the first interpreter of each run", "numpy", ["2.1.0", "2.2.0"]),
        ("the first interpreter of each run", "nvidia-cudnn-cu12", ["9.1.0", None]),
        ("the first interpreter of each run", "wandb", [None, "0.19.1"]),
    ]
    assert ("glibc", ["2.35", "2.39"]) in fingerprint_differences([a, b])
    assert package_differences([a, {}]) == []  # a run without env.json: nothing to set beside it


def test_resume_completes_an_env_json_whose_interpreters_never_answered(tmp_path, write, venvs):
    a, b = venvs
    matrix = write("m.yaml", f"name: r\ncommand: [python, -c, pass]\naxes:\n  python: [{a}, {b}]\n")
    assert crashmatrix("run", matrix, "--out", tmp_path / "r", cwd=tmp_path).returncode == 0
    env_path = tmp_path / "r" / "env.json"
    env = json.loads(env_path.read_text())
    # As a controller killed before the end leaves it: the machine only.
    env_path.write_text(json.dumps({k: v for k, v in env.items() if k not in ("interpreters", "interpreter")}))
    assert crashmatrix("run", "--resume", tmp_path / "r", cwd=tmp_path).returncode == 0
    resumed = json.loads(env_path.read_text())
    assert resumed["interpreter"] == a and installed(resumed["interpreters"][a]) == {"tinypkg": "1.0"}
    assert installed(resumed["interpreters"][b]) == {}
