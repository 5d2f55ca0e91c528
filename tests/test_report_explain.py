"""report.html hedges as summary.md does: explain's sentences with their counts and alternatives, the
pairwise caveat, and a grid caption when a square may be a coincidence of pairwise sampling (issue 20,
item 6). On real runs of a program that really segfaults."""

import html
import re
import shutil
import subprocess

import pytest
from conftest import crashmatrix

pytestmark = pytest.mark.slow  # real runs reported

# Dies by SIGSEGV only where three values meet: pairwise sees it in one cell, with bystanders.
CRASH = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["workers"] == "2" and args["persistent"] == "true" and args["logger"] == "csv":
    os.kill(os.getpid(), signal.SIGSEGV)
"""

MATRIX = """\
name: pw
command: [python, crash.py]
axes:
  workers: [0, 2]
  persistent: [false, true]
  logger: [none, wandb, csv]
  precision: ["32", "16-mixed", "bf16-mixed"]
  compile: [false, true]
strategy: {strategy}
"""


def _run(tmp_path, strategy: str):
    (tmp_path / "crash.py").write_text(CRASH)
    (tmp_path / "m.yaml").write_text(MATRIX.format(strategy=strategy))
    proc = crashmatrix("run", "m.yaml", "--out", "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = (tmp_path / "run" / "summary.md").read_text()
    page = (tmp_path / "run" / "report.html").read_text()
    return summary, page


def _common_lines(summary: str) -> list[str]:
    """The bullet lines of summary.md's 'What the failing cells have in common'."""
    section = summary.split("## What the failing cells have in common", 1)[1]
    return [line[2:] for line in section.splitlines() if line.startswith("- ")]


def _text(page: str) -> str:
    """The page as a reader sees its words: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_a_pairwise_report_carries_explains_lines_the_caveat_and_the_grids_caption(tmp_path):
    summary, page = _run(tmp_path, "pairwise")
    lines = _common_lines(summary)
    assert any("(1 of 1 matching)" in line for line in lines), summary
    assert any("the data fit as well:" in line for line in lines), summary
    text = _text(page)
    assert "What the failing cells have in common" in text
    for line in lines:
        assert line.replace("`", "") in text, line
    assert "Pairwise covers every pair of values, not every combination" in text
    caption = re.search(r"This run is pairwise: [^<]*", page)
    assert caption, page
    # the one all-failing square is named, and called a possible coincidence
    assert re.search(r"here: \w+=[^;)]+: 1 cell\) may be a coincidence of that sampling", caption.group(0))
    assert "<code>crashmatrix bisect run</code>" in page


def test_a_full_report_states_explains_lines_without_the_pairwise_hedges(tmp_path):
    summary, page = _run(tmp_path, "full")
    text = _text(page)
    lines = _common_lines(summary)
    assert lines and all(line.replace("`", "") in text for line in lines)
    assert "crash SIGSEGV when workers=2 and persistent=true and logger=csv" in text
    assert "Pairwise covers" not in text and "This run is pairwise" not in text


@pytest.mark.skipif(not shutil.which("chromium"), reason="needs headless Chromium")
def test_chromium_renders_the_explain_section_and_the_caveat(tmp_path):
    _summary, _page = _run(tmp_path, "pairwise")
    url = (tmp_path / "run" / "report.html").as_uri()
    proc = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    dom = _text(proc.stdout)
    assert "What the failing cells have in common" in dom, proc.stderr[-2000:]
    assert "may be a coincidence of that sampling" in dom
    assert "Pairwise covers every pair of values" in dom
