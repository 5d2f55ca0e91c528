"""Bad input of any kind: exit 2, one or two lines naming the file and the key, no traceback, nothing lost."""

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # 73 command lines, a controller process each

GOOD = "name: ok\nprobe: fault\naxes:\n  mode: [pass]\n"

CASES = [
    ("unreadable", None, [], "cannot read"),
    ("not utf-8", b"name: x\nprobe: fault\naxes:\n  mode: [\xff]\n", [], "not UTF-8 text"),
    ("syntax", "name: x\naxes: [unclosed\n", [], "m.yaml:3:1: not valid YAML"),
    ("not a mapping", "- a\n- b\n", [], "expected a mapping"),
    ("unknown key", GOOD + "repeat: 3\n", [], "m.yaml: repeat: unknown key"),
    ("empty axis", "name: x\nprobe: fault\naxes:\n  mode: []\n", [], "axes.mode: empty axis"),
    ("scalar axis", "name: x\nprobe: fault\naxes:\n  mode: segv\n", [], "axes.mode: expected a list"),
    ("unknown probe", "name: x\nprobe: nosuch\naxes:\n  a: [1]\n", [], "probe: unknown probe 'nosuch'"),
    ("probe and command", GOOD + "command: [python]\n", [], "give exactly one"),
    ("neither", "name: x\naxes:\n  a: [1]\n", [], "probe/command"),
    (
        "unknown param",
        GOOD.replace("mode: [pass]", "mode: [pass]\n  colour: [red]"),
        [],
        "axes.colour: probe 'fault' has no parameter",
    ),
    ("exclude unknown axis", GOOD + "exclude:\n  - {wrokers: 4}\n", [], "exclude[0].wrokers: not an axis"),
    ("exclude unknown value", GOOD + "exclude:\n  - {mode: segv}\n", [], "exclude[0].mode: segv is not one of"),
    ("negative timeout", GOOD + "timeout: -5\n", [], "timeout: expected a number of seconds > 0"),
    ("zero repeats", GOOD + "repeats: 0\n", [], "repeats: expected an integer from 1 to 10000"),
    ("escaping name", GOOD.replace("name: ok", "name: ../../etc"), [], "name: '../../etc' must be letters"),
    ("bad override grammar", GOOD, ["repeats=[1"], "bad override"),
    ("override unknown key", GOOD, ["colour=red"], "override 'colour=red': colour: unknown key"),
    ("override not key=value", GOOD, ["repeats"], "override 'repeats': expected key=value"),
    ("delete missing", GOOD, ["~axes.nosuch"], "axes.nosuch"),
    ("override makes axis empty", GOOD, ["axes.mode=[]"], "axes.mode: empty axis"),
    ("infinite timeout", GOOD + "timeout: .inf\n", [], "timeout: expected a number of seconds > 0"),
    ("nan timeout", GOOD + "timeout: .nan\n", [], "timeout: expected a number of seconds > 0"),
    ("absurd repeats", GOOD + "repeats: 10000000000\n", [], "repeats: expected an integer from 1 to 10000"),
    ("env name with =", GOOD + 'env: {"A=B": x}\n', [], "env.A=B: not a usable environment variable name"),
    ("NUL in a value", GOOD.replace("mode: [pass]", 'mode: ["a\\0b"]'), [], "axes.mode: value"),
    ("unknown executor key", GOOD + "executor: {partiton: gpu}\n", [], "executor.partiton: unknown setting"),
    (
        "bad cells_per_job",
        GOOD + "executor: {cells_per_job: abc}\n",
        [],
        "executor.cells_per_job: expected a whole number",
    ),
    (
        "dotted and nested",
        "name: x\nprobe: fault\naxes:\n  cudnn.benchmark: [false]\n  cudnn: {benchmark: [true]}\n",
        [],
        "given twice",
    ),
    # Every key of a keys axis is checked, not only its last.
    (
        "unknown key of a keys axis",
        GOOD.replace("mode: [pass]", "mode: [pass]\n  both: {values: [1], keys: [colour, flood_mb]}"),
        [],
        "axes.both.keys: probe 'fault' has no parameter 'colour'",
    ),
    (
        "secret axis",
        GOOD.replace("mode: [pass]", "mode: [pass]\n  env.HF_TOKEN: [a]"),
        [],
        "a secret cannot be an axis",
    ),
]


@pytest.mark.parametrize("text,overrides,fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.parametrize("verb", ["show", "run"])
def test_bad_matrix(tmp_path, text, overrides, fragment, verb):
    path = tmp_path / "m.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    proc = crashmatrix(verb, path, *overrides, cwd=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2
    assert fragment in proc.stderr
    assert "m.yaml" in proc.stderr
    assert not (tmp_path / "results").exists()


def test_a_bad_resume_loses_nothing(tmp_path):
    (tmp_path / "m.yaml").write_text(GOOD)
    assert crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path).returncode == 0
    before = (tmp_path / "run" / "results.csv").read_text()
    # Same run directory, a matrix with a column the run does not have.
    (tmp_path / "m2.yaml").write_text(GOOD.replace("mode: [pass]", "mode: [pass]\n  flood_mb: [1]"))
    proc = crashmatrix("run", "m2.yaml", "--resume", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "flood_mb" in proc.stderr
    # Starting a new run over an existing one is refused rather than overwriting it.
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2 and "already holds a run" in proc.stderr
    assert (tmp_path / "run" / "results.csv").read_text() == before


def test_bad_command_line_and_missing_runs(tmp_path):
    for args in (["run"], ["report", tmp_path / "nope"], ["run", "m.yaml", "--jobs", "0"], ["frobnicate"]):
        (tmp_path / "m.yaml").write_text(GOOD)
        proc = crashmatrix(*args, cwd=tmp_path)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr


def test_out_never_writes_over_a_users_directory_or_file(tmp_path):
    (tmp_path / "m.yaml").write_text(GOOD)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "summary.md").write_text("my precious notes")
    (tmp_path / "afile").write_text("keep me")
    for out, fragment in (("mine", "not empty"), ("afile", "this is a file"), ("/proc/nope/run", "cannot create")):
        proc = crashmatrix("run", "m.yaml", "--out", out, cwd=tmp_path)
        assert proc.returncode == 2 and fragment in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert (tmp_path / "mine" / "summary.md").read_text() == "my precious notes"
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["summary.md"]
    assert (tmp_path / "afile").read_text() == "keep me"


def test_a_damaged_results_csv_is_refused_untouched(tmp_path):
    (tmp_path / "m.yaml").write_text(GOOD)
    assert crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path).returncode == 0
    csv_path = tmp_path / "run" / "results.csv"
    damaged = csv_path.read_text() + "deadbeef,notint,pass\n"
    csv_path.write_text(damaged)
    proc = crashmatrix("run", "--resume", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2 and "line 3" in proc.stderr and "Traceback" not in proc.stderr
    assert csv_path.read_text() == damaged
    csv_path.write_bytes(b"\xff\xfe")
    for verb in (["report"], ["explain"]):
        proc = crashmatrix(*verb, tmp_path / "run", cwd=tmp_path)
        assert proc.returncode == 2 and "not UTF-8" in proc.stderr


@pytest.mark.parametrize("verb", ["run", "bisect"])
def test_a_missing_script_is_bad_input_before_any_cell(tmp_path, write, verb):
    path = write("m.yaml", "name: gone\ncommand: [python, -u, nothere.py]\naxes:\n  a: [1, 2]\n")
    extra = ["--bad", "a=2"] if verb == "bisect" else []
    proc = crashmatrix(verb, path, *extra, "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"m.yaml: command: no file 'nothere.py' in {tmp_path}" in proc.stderr
    assert not (tmp_path / "out").exists()  # no cell ran, nothing was written


def test_a_program_not_on_path_is_bad_input(tmp_path, write):
    path = write("m.yaml", "name: gone\ncommand: [no-such-program-here, x]\naxes:\n  a: [1]\n")
    proc = crashmatrix("run", path, "--out", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("m.yaml: command: program 'no-such-program-here' is not on PATH")


def test_a_matrix_beside_its_script_runs_from_anywhere(tmp_path, write):
    # As `crashmatrix init` writes it: the script named relative to the matrix file, not to the user's cwd.
    (tmp_path / "app").mkdir()
    write("app/train.py", "import sys\nprint(sys.argv[1:])\n")
    write("app/m.yaml", "name: beside\ncommand: [python, train.py]\naxes:\n  a: [1]\n")
    (tmp_path / "elsewhere").mkdir()
    proc = crashmatrix("run", "../app/m.yaml", "--out", "run", cwd=tmp_path / "elsewhere")
    assert proc.returncode == 0, proc.stderr
    assert "1 pass" in proc.stdout or "| pass" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1] == (
        "results: run/results.csv  summary: run/summary.md  report: run/report.html"
    )
    # the run directory's copy names the script absolutely: rerun and --resume find it from anywhere
    assert f"- {tmp_path / 'app' / 'train.py'}" in (tmp_path / "elsewhere/run/matrix.yaml").read_text()


@pytest.mark.parametrize("verb", ["show", "run", "hunt"])
def test_a_run_directory_given_for_a_matrix_file_is_named_so(tmp_path, verb):
    # A user passes the folder a run wrote where a matrix file goes: not "Is a directory", but what it is,
    # its matrix file, and the verbs that read a run directory.
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "matrix.yaml").write_text(GOOD)
    (tmp_path / "run" / "results.csv").write_text("cell_id,repeat,mode,outcome\n")
    (tmp_path / "folder").mkdir()
    proc = crashmatrix(verb, "run", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        "crashmatrix: run: a run directory, not a matrix file: give its matrix file, run/matrix.yaml, or a verb "
        "that reads a run directory (rerun, report, explain, resolve, compare, bisect RUN, run --resume)"
    )
    other = crashmatrix(verb, "folder", cwd=tmp_path)
    assert other.returncode == 2 and "folder: a directory, not a matrix file" in other.stderr
