"""Under `inject: true` the program behaves as it does alone (DESIGN.md): warnings and every filter on
them, logging, signal handlers, excepthooks, atexit, exit status, sys.argv, __file__, the working
directory, the start method it sets itself, the order of its output.

Each small real program in tests/apps/fidelity/ exercises one of these. Every case runs twice with the
same command, environment and working directory: alone (a plain subprocess, with the environment a
cell gets: PYTHONUNBUFFERED, PYTHONFAULTHANDLER, PYTHONDONTWRITEBYTECODE) and as a cell of one
crashmatrix run with `inject: true`, the knobs at the program's own values or unset. Exit status,
stdout, stderr and the files written must be the same, byte for byte once timestamps and
object addresses are masked.
The run is one matrix (an axis over the cases), so the whole suite costs one run of small programs.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # real programs under inject

APPS = os.path.join(ROOT, "tests", "apps", "fidelity")
# Every case runs in a folder of its own (its files are compared), through `exec`: the program is the
# cell's process itself, as `python prog.py` would be.
SHELL = (
    'cd "$FIDELITY_CASE" && exec "$FIDELITY_PYTHON" $FIDELITY_OPTS "$FIDELITY_APPS/$FIDELITY_PROGRAM" $FIDELITY_ARGS'
)
COMMAND = ["sh", "-c", SHELL]
DATALOADER = "torch.utils.data.dataloader"
PROGRAMS_OWN_LOADER = {"pin_memory": True, "num_workers": 0}  # what torch_loader.py passes itself

# name: program, and what the case adds: env, python options (-W), the program's arguments, knobs.
CASES = {
    "warn_default": {"program": "warnings_app.py"},
    "warn_env_module": {
        "program": "warnings_app.py",
        "env": {
            "PYTHONWARNINGS": "ignore::UserWarning:noisy,always::DeprecationWarning:noisy,error::RuntimeWarning:noisy"
        },
    },
    "warn_env_message": {
        "program": "warnings_app.py",
        "env": {"PYTHONWARNINGS": "ignore:hush,always:main repeated,error:noisy runtime"},
    },
    "warn_W": {
        "program": "warnings_app.py",
        "opts": "-W default::DeprecationWarning -W ignore::UserWarning:noisy -W ignore:hush",
    },
    "warn_W_over_env": {
        "program": "warnings_app.py",
        "opts": "-W error::UserWarning:noisy",
        "env": {"PYTHONWARNINGS": "ignore::UserWarning"},
    },
    "warn_code": {"program": "warnings_code.py"},
    "torch_default": {"program": "torch_loader.py"},
    "torch_pin_error": {
        "program": "torch_loader.py",
        "env": {"PYTHONWARNINGS": f"error::UserWarning:{DATALOADER}"},
        "knobs": PROGRAMS_OWN_LOADER,
    },
    # and a dataset that fails inside the loop: its traceback goes through the DataLoader
    "torch_pin_ignore_raise": {
        "program": "torch_loader.py",
        "args": "mode=raise",
        "env": {"PYTHONWARNINGS": f"ignore::UserWarning:{DATALOADER}"},
    },
    "torch_W_message": {
        "program": "torch_loader.py",
        "opts": "-W ignore:'pin_memory' -W error:Length",
        "knobs": PROGRAMS_OWN_LOADER,
    },
    "logging": {"program": "logging_app.py"},
    "signals": {"program": "signals_app.py"},
    # inject dumps a process's stacks as a SIGTERM ends it (a launcher stopping the other ranks), chained
    "sigterm_default": {"program": "sigterm_app.py", "args": "case=default"},
    "sigterm_ignored": {"program": "sigterm_app.py", "args": "case=ignored"},
    "excepthook": {"program": "excepthook_app.py"},
    "atexit": {"program": "atexit_app.py"},
    "exit_os_exit": {"program": "exit_app.py", "args": "case=os_exit"},
    "exit_uncaught": {"program": "exit_app.py", "args": "case=uncaught"},
    "exit_message": {"program": "exit_app.py", "args": "case=message"},
    "exit_interrupt": {"program": "exit_app.py", "args": "case=interrupt"},
    # `multiprocessing` in an argument: the program is still the cell's main process
    "argv": {"program": "argv_app.py", "args": "lr=0.1 --flag data=multiprocessing"},
    "start_method_own": {"program": "start_method_app.py"},
    "start_method_knob": {"program": "start_method_app.py", "knobs": {"start_method": "spawn"}},
    "stdio": {"program": "stdio_app.py"},
    "hydra": {"program": "hydra_app.py", "args": "hydra.run.dir=hydra_out"},
}
# Ends before atexit (os._exit, death by a signal): no metrics can be written.
NO_METRICS = {"exit_os_exit", "sigterm_default"}

MATRIX_ENV = {"FIDELITY_PYTHON": sys.executable, "FIDELITY_APPS": APPS}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d+")
ADDRESS = re.compile(r"\b0x[0-9a-f]{6,}\b")  # an object's repr: <function raising at 0x7f...>


def _case_env(case: dict) -> dict:
    env = {"FIDELITY_PROGRAM": case["program"]}
    if case.get("opts"):
        env["FIDELITY_OPTS"] = case["opts"]
    if case.get("args"):
        env["FIDELITY_ARGS"] = case["args"]
    return {**env, **case.get("env", {})}


def _matrix(path: str) -> None:
    include = [
        {"env.FIDELITY_CASE": name, **{f"env.{k}": v for k, v in _case_env(case).items()}, **case.get("knobs", {})}
        for name, case in CASES.items()
    ]
    matrix = {
        "name": "fidelity",
        "command": COMMAND,
        "pass_params": "none",
        "inject": True,
        "timeout": 120,
        "env": MATRIX_ENV,
        "axes": {"env.FIDELITY_CASE": list(CASES)},
        "include": include,
    }
    with open(path, "w") as f:
        yaml.safe_dump(matrix, f, sort_keys=False)


def _alone_env(name: str) -> dict:
    """The environment the cell gets, without what inject adds: the controller's (conftest.crashmatrix
    puts the project on PYTHONPATH), the matrix's, the case's, and what every cell gets."""
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(MATRIX_ENV)
    env.update({"FIDELITY_CASE": name, **_case_env(CASES[name])})
    env.setdefault("PYTHONFAULTHANDLER", "1")
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return env


def _run_alone(work, logs, name: str) -> int:
    """The case as its own process, started as crashmatrix starts a cell (own session, no stdin,
    output straight to files)."""
    with open(logs / f"{name}.stdout", "wb") as out, open(logs / f"{name}.stderr", "wb") as err:
        proc = subprocess.run(
            COMMAND,
            cwd=work,
            env=_alone_env(name),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            timeout=120,
        )
    return proc.returncode


def _files(folder) -> dict:
    """Every file a case wrote, by relative path, its text masked."""
    found = {}
    for here, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(here, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                found[os.path.relpath(path, folder)] = _masked(f.read())
    return found


def _masked(text: str) -> str:
    return ADDRESS.sub("<address>", TIMESTAMP.sub("<time>", text))


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """{case: (alone, injected)}, each {status, stdout, stderr, files}; and the run's rows."""
    top = tmp_path_factory.mktemp("fidelity")
    work, logs = top / "work", top / "alone-logs"
    logs.mkdir()
    for name in CASES:
        (work / name).mkdir(parents=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        statuses = dict(zip(CASES, pool.map(lambda name: _run_alone(work, logs, name), CASES)))
    alone = {
        name: {
            "status": statuses[name],
            "stdout": _masked((logs / f"{name}.stdout").read_text()),
            "stderr": _masked((logs / f"{name}.stderr").read_text()),
            "files": _files(work / name),
        }
        for name in CASES
    }
    # The same folders, emptied: the cells run with the very paths the programs had alone.
    shutil.rmtree(work)
    for name in CASES:
        (work / name).mkdir(parents=True)
    _matrix(str(top / "fidelity.yaml"))
    proc = crashmatrix("run", top / "fidelity.yaml", "--out", top / "run", "--jobs", "2", cwd=work)
    assert (top / "run" / "results.csv").exists(), proc.stderr
    rows = {row["env.FIDELITY_CASE"]: row for row in rows_of(top / "run")}
    assert set(rows) == set(CASES), proc.stderr
    injected = {}
    for name, row in rows.items():
        cell = top / "run" / row["log_dir"]
        injected[name] = {
            "status": -signal.Signals[row["signal"]].value if row["signal"] else int(row["exit_code"]),
            "stdout": _masked((cell / "stdout.log").read_text()),
            "stderr": _masked((cell / "stderr.log").read_text()),
            "files": _files(work / name),
        }
    return {name: (alone[name], injected[name]) for name in CASES}, rows


@pytest.mark.parametrize("name", list(CASES))
def test_a_program_under_inject_behaves_as_it_does_alone(both, name):
    results, _rows = both
    alone, injected = results[name]
    assert injected["status"] == alone["status"]
    assert injected["stderr"] == alone["stderr"]
    assert injected["stdout"] == alone["stdout"]
    assert injected["files"] == alone["files"]


def test_the_cases_show_what_they_exercise(both):
    # A case that shows nothing proves nothing: each must have done its thing alone.
    results, _rows = both
    alone = {name: pair[0] for name, pair in results.items()}
    pin = "UserWarning: 'pin_memory' argument is set as true but no accelerator is found"
    assert pin in alone["torch_default"]["stderr"] and pin in alone["torch_pin_error"]["stderr"]
    assert alone["torch_pin_error"]["status"] == 1 and "total" not in alone["torch_pin_error"]["stdout"]
    ignored = alone["torch_pin_ignore_raise"]
    assert pin not in ignored["stderr"] and "ValueError: sample 5 is corrupt" in ignored["stderr"]
    # torch's stacklevel=2 warning names the program's own loop line
    assert "torch_loader.py:52: UserWarning: Length of IterableDataset" in alone["torch_default"]["stderr"]
    assert (
        alone["torch_W_message"]["status"] == 1
        and "UserWarning: Length of IterableDataset" in alone["torch_W_message"]["stderr"]
    )
    assert "noisy user warning" in alone["warn_default"]["stderr"]
    assert "noisy user warning" not in alone["warn_env_module"]["stderr"] and alone["warn_env_module"]["status"] == 1
    assert alone["warn_env_message"]["status"] == 1 and "hush" not in alone["warn_env_message"]["stderr"]
    assert (
        alone["warn_W_over_env"]["status"] == 1
        and "UserWarning: noisy user warning" in alone["warn_W_over_env"]["stderr"]
    )
    assert "own showwarning: UserWarning: through the program's showwarning" in alone["warn_code"]["stderr"]
    assert alone["signals"]["status"] == 5 and "KeyboardInterrupt caught" in alone["signals"]["stdout"]
    assert alone["excepthook"]["stderr"].startswith("program's threading.excepthook: RuntimeError")
    assert alone["atexit"]["status"] == 3 and alone["atexit"]["files"] == {"atexit_app.txt": "last\nfirst\n"}
    assert [alone[f"exit_{c}"]["status"] for c in ("os_exit", "uncaught", "message", "interrupt")] == [
        7,
        1,
        1,
        -signal.SIGINT,
    ]
    assert "child says hello under spawn" in alone["start_method_own"]["stdout"]
    assert "interleaved err 2\ninterleaved raw err 2\n" in alone["stdio"]["stdout"]
    assert "hydra_out/hydra_app.log" in alone["hydra"]["files"]


def test_what_inject_measures_it_still_measures(both):
    # Observing changes nothing, and still sees: every cell's metrics, the DataLoader's passes.
    _results, rows = both
    for name, row in rows.items():
        assert (row["peak_rss_mb"] != "") == (name not in NO_METRICS), (name, row)
    row = rows["torch_default"]
    # 2 passes of 8 batches over the busiest loader (the IterableDataset's yields 4)
    assert row["steps"] == "16" and float(row["steps_per_s"]) > 0 and row["first_batch_s"] != "", row
    assert rows["torch_pin_ignore_raise"]["steps"] == "2"  # batch 3 holds the corrupt sample


def test_a_cell_keeps_the_ignored_sigint_it_would_have_alone(tmp_path):
    # Run in the background (`cmd &`, nohup), a program starts with SIGINT ignored; crashmatrix catches
    # Ctrl-C only where it could have come, so its cells start as the program alone would.
    program = "import signal; print(signal.getsignal(signal.SIGINT))"
    (tmp_path / "m.yaml").write_text(
        f"name: sigint\ncommand: [python, -c, {program!r}]\npass_params: none\ninject: true\naxes:\n  i: [0]\n"
    )
    env = dict(os.environ, PYTHONPATH=ROOT)
    ignoring = {"preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)}
    alone = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, **ignoring)
    run = subprocess.run(
        [sys.executable, "-m", "crashmatrix", "run", "m.yaml", "--out", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        **ignoring,
    )
    assert run.returncode == 0, run.stderr
    (cell,) = (tmp_path / "run" / "cells").iterdir()
    assert alone.stdout == f"{int(signal.SIG_IGN)}\n"  # SIG_IGN, as Python 3.11 prints it
    assert (cell / "stdout.log").read_text() == alone.stdout
