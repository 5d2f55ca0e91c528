"""`crashmatrix report --by` (pivot) and report.html, on one real small run.

The program: cell (a=y, b=2) segfaults every time; cell (a=x, b=2) fails (exit 3) on exactly
one of its two repeats (whichever creates the marker file first); the rest pass.
"""

import csv
import io
import os
import re

import pytest
from conftest import crashmatrix, rows_of

SCRIPT = """\
import os, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["a"] == "y" and args["b"] == "2":
    os.kill(os.getpid(), signal.SIGSEGV)
if args["a"] == "x" and args["b"] == "2":
    try:
        os.close(os.open(os.path.join(os.environ["MARK_DIR"], "failed-once"), os.O_CREAT | os.O_EXCL))
        print("RuntimeError: flaky once", file=sys.stderr)
        sys.exit(3)
    except FileExistsError:
        pass
"""

MATRIX = """\
name: piv
command: [python, {script}]
axes:
  a: [x, y]
  b: [1, 2]
env: {{MARK_DIR: "{mark}"}}
repeats: 2
timeout: 60
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    (tmp / "script.py").write_text(SCRIPT)
    (tmp / "m.yaml").write_text(MATRIX.format(script=tmp / "script.py", mark=tmp))
    proc = crashmatrix("run", "m.yaml", "--jobs", "4", "--out", tmp / "run", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr
    with open(tmp / "run" / "results.csv", newline="") as f:
        ids = {(r["a"], r["b"]): r["cell_id"] for r in csv.DictReader(f)}
    return tmp, ids


def _rows(md: str, header_start: str) -> list[list[str]]:
    """The body rows of the markdown table whose header begins with header_start."""
    lines = md.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| " + header_start))
    out = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        out.append([c.strip() for c in line.strip("|").split("|")])
    return out


@pytest.mark.slow
def test_pivot_over_one_axis(run):
    tmp, _ = run
    proc = crashmatrix("report", "run", "--by", "a", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    assert "8 runs of 4 cells, 3 failing" in proc.stdout
    assert _rows(proc.stdout, "a ") == [
        ["x", "1/4 fail RuntimeError: flaky once", "4", "1"],
        ["y", "2/4 crash SIGSEGV", "4", "2"],
    ]
    by_value = _rows(proc.stdout, "axis")
    assert [r[:5] for r in by_value] == [
        ["a", "x", "4", "1", "25%"],
        ["a", "y", "4", "2", "50%"],
        ["b", "1", "4", "0", "0%"],
        ["b", "2", "4", "3", "75%"],
    ]
    # The wall time of the passing runs, and no other speed column: this program has no DataLoader, so
    # first batch (median or total) and steps/s would be "—" in every row.
    assert _header(proc.stdout, "axis")[5:] == ["wall s"]
    assert all(float(r[5]) > 0 and len(r) == 6 for r in by_value), by_value


def _header(md: str, header_start: str) -> list[str]:
    line = next(line for line in md.splitlines() if line.startswith("| " + header_start))
    return [c.strip() for c in line.strip("|").split("|")]


@pytest.mark.slow
def test_pivot_over_two_axes(run):
    tmp, _ = run
    proc = crashmatrix("report", "run", "--by", "a,b", "--format", "github", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    assert _rows(proc.stdout, "a \\ b") == [
        ["x", "pass", "1/2 fail RuntimeError: flaky once"],
        ["y", "pass", "2/2 crash SIGSEGV"],
    ]


@pytest.mark.slow
def test_pivot_csv_is_a_long_table_for_pandas(run):
    import pandas as pd

    tmp, _ = run
    proc = crashmatrix("report", "run/results.csv", "--by", "a,b", "--format", "csv", cwd=tmp)
    assert proc.returncode == 0, proc.stderr
    df = pd.read_csv(io.StringIO(proc.stdout), dtype=str, keep_default_na=False)
    assert list(df.columns) == ["a", "b", "outcome", "signal", "signature", "runs", "cells", "total_runs", "rate"]
    expected = pd.DataFrame(
        [
            ["x", "1", "pass", "", "", "2", "1", "2", "1"],
            ["x", "2", "fail", "", "RuntimeError: flaky once", "1", "1", "2", "0.5"],
            ["x", "2", "pass", "", "", "1", "1", "2", "0.5"],
            ["y", "1", "pass", "", "", "2", "1", "2", "1"],
            ["y", "2", "crash", "SIGSEGV", "killed_by_signal in script.py:<module>", "2", "1", "2", "1"],
        ],
        columns=df.columns,
    )
    pd.testing.assert_frame_equal(df, expected)
    # What a user does with it: failure rate per value of b.
    df = pd.read_csv(io.StringIO(proc.stdout))
    failing = df[~df.outcome.isin(["pass", "skip"])].groupby("b").runs.sum()
    assert failing.to_dict() == {2: 3}


@pytest.mark.slow
def test_unknown_axis_is_bad_input_naming_the_axes(run):
    tmp, _ = run
    proc = crashmatrix("report", "run", "--by", "a,num_workers", cwd=tmp)
    assert proc.returncode == 2
    assert "num_workers" in proc.stderr and "a, b" in proc.stderr and "results.csv" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = crashmatrix("report", "run", "--by", "a,b,a", cwd=tmp)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_report_html_is_self_contained_and_shows_every_cell(run):
    tmp, ids = run
    path = tmp / "run" / "report.html"
    html = path.read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r'(src|href)\s*=\s*["\']?\s*(https?:)?//', html), "a network asset"
    assert "<script" not in html
    for cell_id in ids.values():
        assert cell_id in html
    # The failing cells, with their error line and a relative link to a log directory that exists.
    assert "Fatal Python error: Segmentation fault" in html and "RuntimeError: flaky once" in html
    links = re.findall(r'href="(cells/[^"]+)"', html)
    assert any(ids[("y", "2")] in link for link in links)
    assert all((tmp / "run" / link).is_dir() for link in links)
    _assert_coloured_by_outcome(html, ids)
    assert "Report: [report.html](report.html)" in (tmp / "run" / "summary.md").read_text()


@pytest.mark.slow
def test_a_speed_column_or_panel_with_no_figures_is_left_out(run):
    # The program has no DataLoader: its runs have wall times and nothing else. A column or a panel that is
    # all "—" (first batch s, steps/s) says nothing: neither summary.md (the console's) nor report.html's
    # table shows it, nor the chart draws it, nor the notes explain it.
    tmp, _ids = run
    html = (tmp / "run" / "report.html").read_text()
    chart = _section(html, "Time and speed")
    panels = re.findall(r'<svg [^>]*aria-label="([^"]*)">(.*?)</svg>', chart)
    assert [title for title, _svg in panels] == ["wall s"] * 3, [title for title, _svg in panels]  # a, b, each cell
    assert all("<rect" in svg for _title, svg in panels)
    assert "wall s: the cell's whole run." in chart and "steps/s" not in chart and "first batch" not in chart
    table = _section(html, "Failure rate and speed by axis value").split("</table>")[0]
    assert re.findall(r"<th>([^<]*)</th>", table) == ["axis", "value", "runs", "failing", "rate", "wall s"]
    summary = (tmp / "run" / "summary.md").read_text()
    assert _header(summary, "axis")[5:] == ["wall s"]
    assert "wall s: the cell's whole run." in summary and "steps/s" not in summary


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _section(html: str, heading: str) -> str:
    return html.split(f"<h2>{heading}")[1].split("<h2>")[0]


def _assert_coloured_by_outcome(html: str, ids: dict) -> None:
    """What a reader of the page relies on: the legend gives every outcome word its own colour (pass
    green, crash red), and every square wears the legend's colour of the outcome it stands for."""
    legend = dict(
        (word, colour) for colour, word in re.findall(r'<span style="background:(#[0-9a-f]{6})">(\w+)</span>', html)
    )
    assert list(legend)[:3] == ["pass", "fail", "crash"] and len(legend) == 11, legend
    assert len(set(legend.values())) == len(legend), legend
    red, green, _blue = _rgb(legend["pass"])
    assert green > red, legend["pass"]
    red, green, _blue = _rgb(legend["crash"])
    assert red > green, legend["crash"]
    square = r'<td class="o" style="background:(#[0-9a-f]{6})"[^>]*>([^<]*)</td>'
    # The grid (a by b): the flaky cell takes its failure's colour, not pass's.
    grid = dict(zip(["x1", "x2", "y1", "y2"], re.findall(square, _section(html, "Grid"))))
    expected = {
        "x1": ("pass", "pass"),
        "x2": ("fail", "1/2 fail"),
        "y1": ("pass", "pass"),
        "y2": ("crash", "2/2 crash"),
    }
    assert {k: (legend[word], text) for k, (word, text) in expected.items()} == grid
    # The outcome counts, and every cell in the table of all cells.
    outcomes = re.findall(square, _section(html, "Outcomes"))
    assert outcomes and all(colour == legend[word] for colour, word in outcomes), outcomes
    rows = re.findall(r'<tr><td class="mono">(\w+)</td>.*?' + square, _section(html, "All cells"))
    main_outcome = {ids["x", "1"]: "pass", ids["x", "2"]: "fail", ids["y", "1"]: "pass", ids["y", "2"]: "crash"}
    assert {cell_id: colour for cell_id, colour, _text in rows} == {c: legend[o] for c, o in main_outcome.items()}


def test_a_broken_html_report_does_not_break_the_run(tmp_path, write, monkeypatch, capsys):
    from crashmatrix.matrix.spec import load_matrix
    from crashmatrix.report import html as report_html
    from crashmatrix.runmatrix import run_matrix

    def broken(run_dir):
        raise OSError("disk on fire")

    monkeypatch.setattr(report_html, "write_html", broken)
    path = write("m.yaml", "name: tiny\ncommand: [python, -c, pass]\naxes:\n  i: [0, 1]\n")
    stream = io.StringIO()
    outcome = run_matrix(load_matrix(path), out=str(tmp_path / "run"), stream=stream, with_torch_fingerprint=False)
    assert [r.outcome for r in outcome.results] == ["pass", "pass"]
    assert os.path.exists(tmp_path / "run" / "summary.md")
    assert not os.path.exists(tmp_path / "run" / "report.html")
    assert "report.html" not in (tmp_path / "run" / "summary.md").read_text()
    assert "crashmatrix: warning: report.html not written (OSError: disk on fire)" in capsys.readouterr().err


LONG_VALUES_SCRIPT = """\
import sys, time
args = dict(a.split("=", 1) for a in sys.argv[1:])
if args["data"].endswith("data-bad") and args["workers"] == "2":
    time.sleep(0.6)  # a failure that takes its time: the page must say how long
    print("ValueError: corrupt record in " + args["data"], file=sys.stderr)
    sys.exit(3)
"""
DATASETS = "/very/long/path/to/the/datasets/of/this/project"


def _bar_labels(html: str, chart: str) -> list[list[str]]:
    """The bar labels of each panel of one chart block of report.html (`<h3>chart</h3>` and its svgs)."""
    block = html.split(f"<h3>{chart}</h3>")[1].split("</div>")[0]
    return [re.findall(r'text-anchor="end">([^<]*)<title>', svg) for svg in block.split("</svg>")[:-1]]


@pytest.mark.slow
def test_report_html_tells_long_values_apart_and_shows_failing_durations(tmp_path):
    """Two data paths that share 50 characters: every bar label differs, names what differs and fits the
    chart; a failing cell's wall time is in the failing cells' table and in the table of all cells."""
    (tmp_path / "prog.py").write_text(LONG_VALUES_SCRIPT)
    (tmp_path / "m.yaml").write_text(
        "name: long\ncommand: [python, prog.py]\n"
        f"axes:\n  data: [{DATASETS}/data-base, {DATASETS}/data-bad]\n  workers: [0, 2]\ntimeout: 60\n"
    )
    proc = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "run" / "report.html").read_text()
    for panel in _bar_labels(html, "data"):
        assert panel == ["…/data-base", "…/data-bad"], panel
    for panel in _bar_labels(html, "each cell: data · workers"):
        assert panel == ["…/data-base · 0", "…/data-base · 2", "…/data-bad · 0", "…/data-bad · 2"], panel
    # the whole value is the label's tooltip
    assert f"<title>{DATASETS}/data-bad · 2</title>" in html
    rows = {(r["data"][-4:], r["workers"]): r for r in rows_of(tmp_path / "run")}
    failed = rows["-bad", "2"]
    assert failed["outcome"] == "fail" and float(failed["duration_s"]) >= 0.6

    def shows_wall_time(section: str, row: dict) -> bool:
        wall = re.escape(f"{float(row['duration_s']):.3g}")
        return bool(re.search(rf'{row["cell_id"]}</td>.*?<td class="num">{wall}</td>', _section(html, section)))

    assert shows_wall_time("Failing cells", failed), _section(html, "Failing cells")
    assert all(shows_wall_time("All cells", row) for row in rows.values()), _section(html, "All cells")


@pytest.mark.parametrize(
    "values, width, expected",
    [
        ([f"{DATASETS}/data-base", f"{DATASETS}/data-bad"], 40, ["…/data-base", "…/data-bad"]),
        (["fork", "spawn", "forkserver"], 12, ["fork", "spawn", "forkserver"]),  # all fit: whole
        (["/data/set-a/very/deep/train.lmdb", "/data/set-b/very/deep/train.lmdb"], 20, ["…/set-a/…", "…/set-b/…"]),
        (["exp/ocr_resnet50_lmdb_train_full_v2", "exp/ocr_resnet50_lmdb_train_full_v3"], 16, None),
        (["a" * 16 + "X" + "b" * 20, "a" * 16 + "Y" + "b" * 20], 10, ["…X…", "…Y…"]),
        (["p/x1-long-long-long-a", "p/x1-long-long-long-b", "p/y"], 8, None),
    ],
)
@pytest.mark.slow
def test_short_labels_keep_what_tells_values_apart(values, width, expected):
    from crashmatrix.report.short_labels import tell_apart

    shown = tell_apart(values, width)
    assert len(set(shown)) == len(values) and all(len(s) <= width for s in shown), shown
    assert expected is None or shown == expected
