"""Every command crashmatrix prints as advice runs as printed (issue 37, item 6).

Real small runs of a program that segfaults at a=1 c=2 (os.kill of itself, no torch: each cell is a bare
Python start) and of the Hydra app tests/apps/hydra_sweep (the same planted segfault) under
`hydra/sweeper=crashmatrix` with `strategy=hunt` and crashmatrix's launcher. Each verb's output and the files
it writes are read for the commands a user is told to run: a `crashmatrix ...` in backticks, after "resume
with:" or "go on with:", on its own line in a code block (ISSUE.md, resolution.md), or in the repro
matrix.yaml's comment; ISSUE.md's program's own command too. Each is then run as printed (shlex.split, from
the folder the user ran the verb in) and must not be refused: exit 0 or 1, never 2, no traceback.

What each verb prints, seen running them: run, rerun and the Hydra sweep's summary name bisect and resolve
(and run --resume after --max-failures); explain the same, and after a hunt the full run of the axes that
matter; resolve the rerun or hunt --resume that would settle what it cannot tell, and repro/ bundles whose
ISSUE.md and matrix.yaml give `crashmatrix run .../matrix.yaml` and the program's own command; report,
show, compare, bisect and hunt end with no command to run (hunt's own resume advice is printed on an
interrupt, tested in test_hunt_cli.py).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix
from test_resolve import CRASHY  # the app that segfaults for a=1 c=2

pytestmark = pytest.mark.slow  # real runs whose advice is followed

PLANTED = """\
name: planted
command: [python, crashy.py]
axes:
  a: [0, 1]
  b: [0, 1]
  c: [0, 2]
timeout: 60
"""
SWEEP_APP = os.path.join(ROOT, "tests", "apps", "hydra_sweep")

_TICKED = re.compile(r"`(crashmatrix [^`]+)`")
_AFTER = re.compile(r"(?:resume with|go on with): (crashmatrix .+?)\s*$", re.M)
# a line of its own in a code block, or indented in a comment (summary.md's heading `# crashmatrix run NAME` is none)
_OWN_LINE = re.compile(r"^(?:#\s{2,})?(crashmatrix (?:run|rerun|hunt|bisect|resolve|explain) .+?)\s*$", re.M)


def advice_in(text: str) -> list[str]:
    """The crashmatrix commands a text tells its reader to run, in the order it gives them."""
    found = _TICKED.findall(text) + _AFTER.findall(text) + _OWN_LINE.findall(text)
    return list(dict.fromkeys(c.strip() for c in found))


def test_advice_in_finds_each_form():
    text = (
        "- axes that matter: a; for the minimal change: `crashmatrix bisect run`\n"
        "crashmatrix: interrupted (SIGINT); resume with: crashmatrix run --resume 'my run'\n"
        "```\ncrashmatrix run /tmp/x/repro/k/matrix.yaml\n```\n"
        "#   crashmatrix run /tmp/x/repro/k/matrix.yaml\n"
        "# crashmatrix run planted\n"  # a heading of summary.md, not a command
    )
    assert advice_in(text) == [
        "crashmatrix bisect run",
        "crashmatrix run --resume 'my run'",
        "crashmatrix run /tmp/x/repro/k/matrix.yaml",
    ]


@pytest.fixture(scope="module")
def advised(tmp_path_factory):
    """{verb: [command, ...]} from real runs, and the folder the user stands in."""
    base = tmp_path_factory.mktemp("advice")
    (base / "crashy.py").write_text(CRASHY)
    (base / "m.yaml").write_text(PLANTED)
    said: dict[str, list[str]] = {}

    def verb(name: str, *args: str, files: tuple = ()) -> None:
        proc = crashmatrix(*args, cwd=base)
        assert proc.returncode == 0, (args, proc.stderr)
        text = proc.stdout + proc.stderr + "".join((base / f).read_text() for f in files)
        said[name] = said.get(name, []) + advice_in(text)

    verb("run", "run", "m.yaml", "--out", "run", "--jobs", "2", files=("run/summary.md",))
    verb("run --max-failures", "run", "m.yaml", "--out", "stopped", "--max-failures", "1")
    verb("rerun", "rerun", "run", "--failing", "--out", "again", files=("again/summary.md",))
    for name, args in {
        "report": ("report", "run"),
        "show": ("show", "m.yaml"),
        "compare": ("compare", "run", "again"),
        "explain": ("explain", "run"),
        "bisect": ("bisect", "run"),
        "hunt": ("hunt", "m.yaml", "--max-runs", "3", "--out", "h"),
    }.items():
        verb(name, *args)
    verb("explain after hunt", "explain", "h")
    verb("resolve", "resolve", "run", files=("run/resolution.md",))
    verb("resolve after hunt", "resolve", "h", files=("h/resolution.md",))
    bundles = sorted((base / "run" / "repro").iterdir())
    for b in bundles:
        said["repro"] = said.get("repro", []) + advice_in(
            (b / "ISSUE.md").read_text() + (b / "matrix.yaml").read_text()
        )
    said["program's own command"] = [_own_command((bundles[0] / "ISSUE.md").read_text())]
    said.update(_hunt_sweep(base))
    return base, said


def _own_command(issue: str) -> str:
    """ISSUE.md's command without crashmatrix: the code block after "the program's own command"."""
    m = re.search(r"the program's own command:\n\n```\n(.+)\n```", issue)
    assert m, issue
    return m.group(1)


def _hunt_sweep(base) -> dict[str, list[str]]:
    """A hunt sweep of the Hydra app under crashmatrix's launcher: its output and summary, then explain and
    resolve of its folder (whose matrix.yaml said strategy: hunt, which every verb refused)."""
    app = base / "app"
    shutil.copytree(SWEEP_APP, app)
    args = ["hydra/launcher=crashmatrix", "hydra/sweeper=crashmatrix", "hydra.sweeper.strategy=hunt"]
    args += [
        "hydra.sweeper.order=2",
        "a=0,1",
        "b=0,1",
        "c=0,2",
        "hydra.launcher.jobs=2",
        f"hydra.sweep.dir={base}/sweep",
    ]
    proc = subprocess.run([sys.executable, "app.py", "-m", *args], cwd=app, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "hunt: complete" in proc.stdout, proc.stdout + proc.stderr
    said = {"hydra sweep": advice_in(proc.stdout + proc.stderr + (base / "sweep" / "summary.md").read_text())}
    for name in ("explain", "resolve"):
        done = crashmatrix(name, "sweep", cwd=base)
        assert done.returncode == 0, done.stderr
        said[f"{name} after a hunt sweep"] = advice_in(done.stdout)
    return said


def test_each_verb_that_advises_was_heard(advised):
    _base, said = advised
    for name in ("run", "run --max-failures", "rerun", "explain", "explain after hunt", "resolve", "repro"):
        assert said[name], name
    assert "crashmatrix run --resume stopped" in said["run --max-failures"]
    assert any(c.startswith("crashmatrix run h/matrix.yaml strategy=full") for c in said["explain after hunt"])
    assert any(
        c.startswith("crashmatrix run sweep/matrix.yaml strategy=full") for c in said["explain after a hunt sweep"]
    )
    assert "crashmatrix bisect sweep" in said["explain after a hunt sweep"]


def test_every_printed_command_runs_as_printed(advised):
    base, said = advised
    printed = [c for name, cs in said.items() if name != "program's own command" for c in cs]
    # One run of each command: `bisect sweep` (explain's) and `bisect /tmp/.../sweep` (the summary's) are one
    seen: dict[tuple, str] = {}
    for c in printed:
        seen.setdefault(_same(c, base), c)
    commands = list(seen.values())
    assert len(commands) >= 8, said
    refused = []
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "crashmatrix", command
        proc = crashmatrix(*argv[1:], cwd=base, timeout=300)
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
            refused.append(f"{command}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    assert refused == [], "\n".join(refused)


def _same(command: str, base) -> tuple:
    """The command with paths under the user's folder relative to it: what tells two printings apart."""
    return tuple(os.path.relpath(a, base) if a.startswith(str(base)) else a for a in shlex.split(command))


def test_the_programs_own_command_in_issue_md_dies_as_reported(advised):
    base, said = advised
    (command,) = said["program's own command"]
    proc = subprocess.run(shlex.split(command), cwd=base, capture_output=True, text=True, timeout=60)
    assert proc.returncode == -11  # SIGSEGV, as the bundle (crash SIGSEGV) says
