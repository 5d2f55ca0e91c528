"""Every session the docs show is a real one, checked here, so it cannot drift (issue 51).

A transcript in docs/ is a fenced block marked `console` whose `$ ` lines are commands and whose other
lines are what they print. Each command reads something committed with the repository and changes nothing:
crashmatrix's read-only verbs (show, report, compare, explain, diagnose, probes, knobs; resolve, which
writes its answer into the run, on a copy of it) on finished runs under docs/examples/ (made on the
development machine) or results/reference/ (real GPU runs), and cat, tail, head, grep, cut and ls on
their files. Each is run from the repository's root as the page types it, and what the page shows under it must
be what it prints, line for line; a line that is `…` alone stands for lines the page left out. Nothing is
normalised: the runs are committed, so their timestamps and paths are what the pages show.

A block with a `$ ` line that is not marked `console` (or an indented one), or a `console` block whose
command would run cells or change a file, fails: a new transcript cannot be added without its source. A
command that runs cells is shown as the command alone, in a plain block, with no output to drift.
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

DOCS = os.path.join(ROOT, "docs")
FENCE = re.compile(r"^(?P<fence>`{3,})(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.S | re.M)
READ_ONLY_VERBS = {"show", "report", "compare", "explain", "diagnose", "probes", "knobs", "resolve"}
READERS = {"cat", "tail", "head", "grep", "cut", "ls"}
# written from the parser before each build (scripts/gen_cli_reference.py; tests/test_docs.py checks it)
GENERATED = {os.path.join("docs", "reference", "cli.md")}


def pages() -> list[str]:
    found = glob.glob(os.path.join(DOCS, "*.md")) + glob.glob(os.path.join(DOCS, "**", "*.md"), recursive=True)
    examples = os.path.join(DOCS, "examples") + os.sep  # the committed runs' own files (ISSUE.md ...)
    pages = {os.path.relpath(p, ROOT) for p in found if not p.startswith(examples)}
    return sorted(pages - GENERATED)


def blocks(page: str) -> list[tuple[int, str, str]]:
    """(line number, language, body) of each fenced block of a page."""
    text = open(os.path.join(ROOT, page), encoding="utf-8").read()
    return [(text.count("\n", 0, m.start()) + 1, m.group("lang"), m.group("body")) for m in FENCE.finditer(text)]


def transcripts() -> list:
    """Each console block of the docs, as a test's parameters named `page:line`."""
    found = [(page, line, body) for page in pages() for line, lang, body in blocks(page) if lang == "console"]
    return [pytest.param(page, line, body, id=f"{page}:{line}") for page, line, body in found]


def steps(body: str) -> list[tuple[str, list[str]]]:
    """(command, the lines shown under it) for each `$ ` line of a transcript."""
    found: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"a transcript must start with a `$ ` command, not {line!r}"
            found[-1][1].append(line)
    return found


def words_of(command: str) -> list[list[str]]:
    """The words of each part of a pipeline; refuses what is not one of the allowed readers."""
    assert not re.search(r"[;&<>`]|\$\(", command), f"one pipeline of readers only: {command}"
    parts = [shlex.split(part) for part in command.split(" | ")]
    for words in parts:
        if words[0] == "crashmatrix":
            assert words[1] in READ_ONLY_VERBS, f"`crashmatrix {words[1]}` runs cells: show the command alone"
        else:
            assert words[0] in READERS, f"`{words[0]}` is not one of the readers a transcript may use"
    return parts


def run(command: str, tmp_path) -> str:
    """What the command prints, run from the repository's root (resolve: from a copy of the run)."""
    cwd = ROOT
    for words in words_of(command):
        if words[0] == "crashmatrix" and words[1] == "resolve":  # it writes into the run: a copy
            run_dir = words[2]
            shutil.copytree(os.path.join(ROOT, run_dir), tmp_path / run_dir, dirs_exist_ok=True)
            cwd = str(tmp_path)
    env = dict(os.environ, PYTHONPATH=ROOT, PY=sys.executable, COLUMNS="200")
    shell = 'crashmatrix() { "$PY" -m crashmatrix "$@"; }; ' + command
    out = subprocess.run(["bash", "-c", shell], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, (command, out.stderr)
    return out.stdout


def shown_pattern(shown: list[str]) -> re.Pattern:
    """The page's lines as a pattern of the whole output: `…` alone matches any lines, or none."""
    parts = ["(?:[^\\n]*\\n)*?" if line.strip() == "…" else re.escape(line.rstrip()) + "\\n" for line in shown]
    return re.compile("".join(parts))


def test_every_transcript_is_marked_console():
    unmarked = []
    for page in pages():
        text = open(os.path.join(ROOT, page), encoding="utf-8").read()
        for line, lang, body in blocks(page):
            if lang != "console" and any(row.startswith("$ ") for row in body.splitlines()):
                unmarked.append(f"{page}:{line}")
        outside = FENCE.sub("", text)
        unmarked += [f"{page}: indented `{m.group(1)}`" for m in re.finditer(r"^(?: {4,}|\t)\$ (.*)$", outside, re.M)]
    assert not unmarked, "transcripts not marked console (so not checked): " + ", ".join(unmarked)


def test_the_docs_have_transcripts():
    # the marker is the one the pages use: a rename would leave every check below with nothing to check
    assert len(transcripts()) >= 10


@pytest.mark.slow  # about 30 commands, 11 CPU-s: resolve asks torch for collect_env.txt
@pytest.mark.parametrize(("page", "line", "body"), transcripts())
def test_the_transcript_is_what_its_commands_print(page, line, body, tmp_path):
    for command, shown in steps(body):
        real = run(command, tmp_path)
        real = "\n".join(row.rstrip() for row in real.splitlines()) + "\n"
        assert shown_pattern(shown).fullmatch(real), f"{page}:{line} `{command}` printed:\n{real}"
