"""`crashmatrix compare`: two real runs of a program whose crash depends on "the machine", compared as a user would.

A real second machine is not available here, so "the other machine" is an environment
variable (OTHER_MACHINE=1) the program reads, and the other machine's fingerprint is
faked by editing run B's env.json (another kernel, WSL2) after the run.
"""

import csv
import io
import json

import pytest
from conftest import crashmatrix, rows_of

SCRIPT = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if os.environ.get("OTHER_MACHINE") == "1" and args["num_workers"] == "4" and args["pin_memory"] == "true":
    os.kill(os.getpid(), signal.SIGSEGV)
print("trained", args)
"""

MATRIX = """\
name: cmp
command: [python, {script}]
axes:
  num_workers: [0, 4]
  pin_memory: [false, true]
repeats: 2
timeout: 60
"""

WSL_KERNEL = "5.15.167.4-microsoft-standard-WSL2"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run A (this machine), run B ("the other machine", with one more num_workers value); 4 + 6 cells, 2 repeats."""
    tmp = tmp_path_factory.mktemp("compare")
    (tmp / "script.py").write_text(SCRIPT)
    (tmp / "m.yaml").write_text(MATRIX.format(script=tmp / "script.py"))
    a = crashmatrix("run", "m.yaml", "--jobs", "4", "--out", tmp / "A", cwd=tmp, env={"OTHER_MACHINE": "0"})
    assert a.returncode == 0, a.stderr
    b = crashmatrix(
        "run",
        "m.yaml",
        "axes.num_workers=[0,4,8]",
        "--jobs",
        "4",
        "--out",
        tmp / "B",
        cwd=tmp,
        env={"OTHER_MACHINE": "1"},
    )
    assert b.returncode == 0, b.stderr
    # Fake the other machine's fingerprint (no second machine here): a WSL2 kernel.
    env_b = tmp / "B" / "env.json"
    facts = json.loads(env_b.read_text())
    facts.update(kernel=WSL_KERNEL, wsl2=True, wsl=True)
    env_b.write_text(json.dumps(facts))
    ids = {(r["num_workers"], r["pin_memory"]): r["cell_id"] for r in rows_of(tmp / "B")}
    return tmp, ids


def _sections(md: str) -> dict:
    """'## title' -> its text; the part before the first section under ''."""
    out, title = {"": ""}, ""
    for line in md.splitlines():
        if line.startswith("## "):
            title = line[3:]
            out[title] = ""
        else:
            out[title] += line + "\n"
    return out


def _table_ids(text: str) -> list[str]:
    return [
        line.split("|")[1].strip()
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|:") and not line.startswith("| cell")
    ]


@pytest.mark.slow
def test_markdown_lists_exactly_the_differing_cells_the_ones_apart_and_the_fingerprint(runs):
    tmp, ids = runs
    proc = crashmatrix("compare", "A", "B", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    sections = _sections(out)
    # The header names each run: path, host, WSL2 or not.
    assert "A = A (" in sections[""] and "not WSL2" in sections[""].splitlines()[2]
    assert "B = B (" in sections[""] and ", WSL2;" in sections[""].splitlines()[3]

    differ = sections["1 of 4 cells in both runs differ"]
    assert _table_ids(differ) == [ids[("4", "true")]]
    row = next(line for line in differ.splitlines() if ids[("4", "true")] in line)
    assert [c.strip() for c in row.split("|")[1:6]] == [
        ids[("4", "true")],
        "4",
        "true",
        "2/2 pass",
        "2/2 crash SIGSEGV",
    ]
    assert "B: Fatal Python error: Segmentation fault" in row

    apart = sections["Only in B (2 cells)"]
    assert sorted(_table_ids(apart)) == sorted([ids[("8", "false")], ids[("8", "true")]])
    assert all("| —" in line for line in apart.splitlines() if line.startswith("| ") and "cell" not in line)

    fingerprint = sections["Fingerprint differences"]
    assert "| kernel" in fingerprint and WSL_KERNEL in fingerprint
    assert [
        c.strip()
        for c in next(line for line in fingerprint.splitlines() if "WSL2" in line and "kernel" not in line).split("|")[
            1:4
        ]
    ] == ["WSL2", "no", "yes"]
    assert "torch" not in fingerprint  # same torch on both sides: not listed


@pytest.mark.slow
def test_csv_has_the_contract_columns_and_one_row_per_differing_cell(runs):
    tmp, ids = runs
    proc = crashmatrix("compare", "A/results.csv", "B/results.csv", "--format", "csv", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    reader = csv.DictReader(io.StringIO(proc.stdout))
    rows = list(reader)
    assert reader.fieldnames[:5] == ["cell_id", "num_workers", "pin_memory", "outcome_a", "outcome_b"]
    assert {"signal_a", "signal_b", "rate_a", "rate_b", "error_a", "error_b"} <= set(reader.fieldnames)
    assert len(rows) == 1
    row = rows[0]
    assert (row["cell_id"], row["num_workers"], row["pin_memory"]) == (ids[("4", "true")], "4", "true")
    assert (row["outcome_a"], row["signal_a"], row["rate_a"]) == ("pass", "", "2/2")
    assert (row["outcome_b"], row["signal_b"], row["rate_b"]) == ("crash", "SIGSEGV", "2/2")
    assert row["error_b"] == "Fatal Python error: Segmentation fault"


@pytest.mark.slow
def test_json_and_three_runs(runs):
    tmp, ids = runs
    proc = crashmatrix("compare", "A", "B", "--format", "json", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [r["label"] for r in data["runs"]] == ["A", "B"]
    assert [r["wsl2"] for r in data["runs"]] == [False, True]
    (cell,) = data["differing"]
    assert cell["cell_id"] == ids[("4", "true")] and cell["values"] == {"num_workers": "4", "pin_memory": "true"}
    assert cell["runs"]["A"]["summary"] == "2/2 pass"
    assert cell["runs"]["B"]["summary"] == "2/2 crash SIGSEGV"
    assert cell["runs"]["B"]["kinds"] == [
        {"outcome": "crash", "signal": "SIGSEGV", "signature": "killed_by_signal in script.py:<module>", "runs": 2}
    ]
    assert sorted((c["cell_id"], tuple(c["present_in"])) for c in data["only_in_some"]) == sorted(
        [(ids[("8", "false")], ("B",)), (ids[("8", "true")], ("B",))]
    )
    assert data["same"] == 3
    fields = {f["field"]: f["values"] for f in data["fingerprint"]}
    assert fields["kernel"]["B"] == WSL_KERNEL and fields["wsl2"] == {"A": False, "B": True}

    # More than two runs: a column per run; the cell still differs (A and C agree, B does not).
    proc = crashmatrix("compare", "A", "B", "A", "--format", "csv", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [(r["cell_id"], r["outcome_a"], r["outcome_b"], r["outcome_c"]) for r in rows] == [
        (ids[("4", "true")], "pass", "crash", "pass")
    ]


@pytest.mark.slow
def test_bad_input_exits_2_naming_the_file(runs, tmp_path):
    tmp, _ = runs
    proc = crashmatrix("compare", "A", "no-such-run", cwd=tmp)
    assert proc.returncode == 2 and "no-such-run" in proc.stderr and "Traceback" not in proc.stderr

    (tmp_path / "notes.txt").write_text("hello,world\n1,2\n")
    proc = crashmatrix("compare", tmp / "A", tmp_path / "notes.txt", cwd=tmp)
    assert proc.returncode == 2 and "notes.txt" in proc.stderr and "not a crashmatrix results.csv" in proc.stderr

    # A run of other axes: B's results with one axis column dropped.
    with open(tmp / "B" / "results.csv", newline="") as f:
        reader = csv.DictReader(f)
        fields = [c for c in reader.fieldnames if c != "pin_memory"]
        rows = [{k: r[k] for k in fields} for r in reader]
    other = tmp_path / "results.csv"
    with open(other, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    proc = crashmatrix("compare", tmp / "A", other, cwd=tmp)
    assert proc.returncode == 2, proc.stdout
    assert str(other) in proc.stderr and "pin_memory" in proc.stderr and "Traceback" not in proc.stderr


def _results(path, kinds_by_cell):
    """A hand-written results.csv: one row per (cell, repeat) with the given (outcome, signal)s."""
    path.mkdir()
    with open(path / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(
            ["cell_id", "repeat", "x", "outcome", "signal", "exit_code", "error", "duration_s", "host", "log_dir"]
        )
        for cell_id, kinds in kinds_by_cell.items():
            for i, (outcome, sig) in enumerate(kinds):
                w.writerow([cell_id, i, cell_id, outcome, sig, "", "", "0.1", "h", f"cells/{cell_id}-r{i}"])
    return str(path)


def test_when_a_cell_differs_with_repeats_python_api(tmp_path):
    """A cell differs when the set of (outcome, signal) kinds over its repeats differs; rates alone do not."""
    from crashmatrix.answers.compare import compare_runs, to_markdown

    seg, ok, bus = ("crash", "SIGSEGV"), ("pass", ""), ("crash", "SIGBUS")
    a = _results(
        tmp_path / "a",
        {"flaky": [seg, ok, ok, ok, ok], "rate": [seg, ok, ok], "sig": [seg, seg], "new": [seg, seg], "same": [ok, ok]},
    )
    b = _results(
        tmp_path / "b",
        {
            "flaky": [seg, seg, seg, ok, ok],
            "rate": [seg, seg, seg],
            "sig": [seg, bus],
            "new": [seg, ok],
            "same": [ok, ok, ok],
        },
    )
    comp = compare_runs([a, b])
    assert comp.differing == ["new", "rate", "sig"] and comp.same == 2 and comp.partial == []
    by_id = {c: [r.cells[c].describe() for r in comp.runs] for c in comp.differing}
    assert by_id == {
        "rate": ["1/3 crash SIGSEGV, 2/3 pass", "3/3 crash SIGSEGV"],
        "sig": ["2/2 crash SIGSEGV", "1/2 crash SIGBUS, 1/2 crash SIGSEGV"],
        "new": ["2/2 crash SIGSEGV", "1/2 crash SIGSEGV, 1/2 pass"],
    }
    text = to_markdown(comp)
    assert "3 of 5 cells in both runs differ" in text and "no env.json" in text.lower()


@pytest.mark.slow
def test_same_outcome_for_another_cause_differs_and_shows_the_signature(tmp_path):
    # Two results.csv as two machines wrote them: the same cell fails on both, for different causes.
    head = "cell_id,repeat,num_workers,outcome,signal,exit_code,error,duration_s,host,log_dir,signature,where\n"
    (tmp_path / "a.csv").write_text(
        head + "c1,0,2,fail,,1,OSError: [Errno 24] Too many open files,1,a,cells/c1-r0,"
        "fd_exhaustion,\nc2,0,0,pass,,0,,1,a,cells/c2-r0,,\n"
    )
    (tmp_path / "b.csv").write_text(
        head + "c1,0,2,fail,,1,RuntimeError: An attempt has been made to start a new "
        "process before the current process has finished its bootstrapping phase.,1,b,"
        "cells/c1-r0,missing_main_guard,\nc2,0,0,pass,,0,,1,b,cells/c2-r0,,\n"
    )
    proc = crashmatrix("compare", "a.csv", "b.csv", "--format", "csv", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert (row["cell_id"], row["outcome_a"], row["outcome_b"]) == ("c1", "fail", "fail")
    assert (row["signature_a"], row["signature_b"]) == ("fd_exhaustion", "missing_main_guard")
    md = crashmatrix("compare", "a.csv", "b.csv", cwd=tmp_path).stdout
    assert "fail fd_exhaustion" in md and "fail missing_main_guard" in md


@pytest.mark.slow
def test_runs_whose_constants_differ_say_so_before_the_cells_they_join(tmp_path):
    # Two sweeps of model=crnn and model=vit, each a constant (params): cell ids join on axis values
    # alone, so their cells join one by one, and the model that sets them apart must be said.
    (tmp_path / "script.py").write_text(SCRIPT)
    sources = []
    for model in ("crnn", "vit"):
        matrix = tmp_path / f"{model}.yaml"
        matrix.write_text(
            MATRIX.format(script=tmp_path / "script.py").replace("repeats: 2", "repeats: 1")
            + f"params:\n  model: {model}\n"
        )
        proc = crashmatrix("run", matrix, "--out", tmp_path / model, cwd=tmp_path, env={"OTHER_MACHINE": "0"})
        assert proc.returncode == 0, proc.stderr
        sources.append(tmp_path / model)
    text = crashmatrix("compare", *sources, cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    head = text.stdout.split("No cell differs")[0]  # said before the cells it qualifies
    assert "## The runs' fixed params differ" in head and "model" in head, text.stdout
    assert "crnn" in head and "vit" in head
    data = json.loads(crashmatrix("compare", *sources, "--format", "json", cwd=tmp_path).stdout)
    assert data["constants"] == [{"param": "model", "values": {"A": "crnn", "B": "vit"}}]
    # runs of one matrix name no constant
    same = json.loads(crashmatrix("compare", sources[0], sources[0], "--format", "json", cwd=tmp_path).stdout)
    assert same["constants"] == []
