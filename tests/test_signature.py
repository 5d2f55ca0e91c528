"""One failure, one identity: real cells repeated and real apps (Hydra, Lightning) through the real command line."""

import csv
import os
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of, run_rows

APPS = os.path.join(ROOT, "tests", "apps")


@pytest.mark.slow
def test_fd_exhaustion_repeated_4_times_has_one_outcome_signal_and_signature(tmp_path, write):
    # The dataloader matrix's fd-exhaustion cell (matrix/dataloader.yaml): descriptors run out in the main
    # process, in the workers' feeder threads or in the resource sharer, whichever comes first. Each
    # wording seen is a table case in test_classify; the zoo's fd_exhaustion repeats another program 3 times.
    path = write(
        "fd.yaml",
        """\
name: fd
probe: dataloader
params: {steps: 40, batch_size: 4, tensor_kb: 256, tensors_per_sample: 4, hold_batches: -1, num_threads: 1,
         start_method: fork, pin_memory: false, sharing_strategy: file_descriptor}
axes:
  rlimit.nofile: [64]
  num_workers: [2]
repeats: 4
timeout: 120
""",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    got = rows_of(tmp_path / "run")
    assert len(got) == 4
    # signed by the probe's own frame, as running out of files is since grouping 11: one place over the repeats
    want = {("fail", "", "fd_exhaustion in probes/dataloader.py:main")}
    assert {(r["outcome"], r["signal"], r["signature"]) for r in got} == want, [(r["outcome"], r["error"]) for r in got]
    for r in got:
        assert "Too many open files" in r["error"] or "ancdata" in r["error"], r["error"]
    header = list(got[0])
    assert header[header.index("log_dir") + 1 : header.index("log_dir") + 3] == ["signature", "where"]
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert "fd_exhaustion" in summary


def test_hydra_app_rows_name_the_override_and_the_job_exception_not_the_boilerplate(tmp_path, write):
    app = os.path.join(APPS, "hydra_tiny", "app.py")
    # A cell the include adds with a key the app's config does not have: Hydra refuses the override
    # (preflight off: what the row says when the app itself refuses).
    path = write(
        "hydra.yaml",
        f"""\
name: hydra
command: [python, {app}]
axes:
  mode: [ok, raise]
include:
  - {{mode: ok-again, start_method: fork}}
timeout: 60
""",
    )
    proc = crashmatrix("run", path, "--out", tmp_path / "run", "--jobs", "2", "--no-preflight", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    by_mode = {r["mode"]: r for r in rows_of(tmp_path / "run")}
    assert by_mode["ok"]["outcome"] == "pass"
    assert (by_mode["raise"]["outcome"], by_mode["raise"]["error"]) == (
        "fail",
        "ValueError: the job failed on purpose (mode=raise)",
    )
    bad = by_mode["ok-again"]
    assert (bad["outcome"], bad["error"]) == (
        "fail",
        "Could not override 'start_method'. Key 'start_method' is not in struct",
    )
    for r in by_mode.values():
        assert "HYDRA_FULL_ERROR" not in r["error"] + r["signature"]
    assert bad["signature"] == bad["error"]  # no pid or path in it: the line itself is the identity
    assert bad["where"] == "override start_method=fork"  # the refused override, as given (held-out set 4)


@pytest.mark.slow
def test_lightning_misconfiguration_is_the_error(tmp_path, write):
    path = write(
        "pl.yaml",
        f"""\
name: lightning
command: [python, {os.path.join(APPS, "lightning_misconfig.py")}]
axes:
  devices: [0]
timeout: 120
""",
    )
    (r,) = run_rows(path, tmp_path)
    assert r["outcome"] == "fail"
    assert r["error"].startswith(
        "lightning_fabric.utilities.exceptions.MisconfigurationException: `Trainer(devices=0)`"
    )
    # its message, its number masked, and the program's frame that called Lightning (grouping 2)
    assert r["signature"] == r["error"].replace("devices=0", "devices=N") + " in tests/apps/lightning_misconfig.py:main"


def _make_old(run_dir, drop_repeat: str):
    """results.csv as crashmatrix wrote it before signature and where: those columns gone, one run dropped
    (its cell directory too, so that --resume runs it again)."""
    path = os.path.join(run_dir, "results.csv")
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        header = [c for c in reader.fieldnames if c not in ("signature", "where")]
        kept = [r for r in reader if r["repeat"] != drop_repeat]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, extrasaction="ignore")
        w.writeheader()
        w.writerows(kept)
    for name in os.listdir(os.path.join(run_dir, "cells")):
        if name.endswith(f"-r{drop_repeat}"):
            import shutil

            shutil.rmtree(os.path.join(run_dir, "cells", name))
    return header


@pytest.mark.slow
def test_an_older_results_csv_without_signature_still_resumes_reports_compares_and_explains(tmp_path, write):
    path = write(
        "old.yaml",
        f"""\
name: old
command: [{sys.executable}, -c, "import sys; sys.exit('boom' if sys.argv[1] == 'i=1' else 0)"]
axes:
  i: [0, 1]
repeats: 2
timeout: 60
""",
    )
    for name in ("old", "new"):
        proc = crashmatrix("run", path, "--out", tmp_path / name, "--jobs", "2", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    header = _make_old(tmp_path / "old", drop_repeat="1")

    proc = crashmatrix("run", "--resume", tmp_path / "old", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    with open(tmp_path / "old" / "results.csv", newline="") as f:
        lines = list(csv.reader(f))
    assert lines[0] == header  # the old header kept, and every row as wide as it
    assert len(lines) == 5 and {len(line) for line in lines} == {len(header)}
    assert {(r["i"], r["outcome"], r["error"]) for r in rows_of(tmp_path / "old")} == {
        ("0", "pass", ""),
        ("1", "fail", "boom"),
    }

    for verb in (
        ["report", tmp_path / "old"],
        ["report", tmp_path / "old", "--by", "i"],
        ["explain", tmp_path / "old"],
    ):
        proc = crashmatrix(*verb, cwd=tmp_path)
        assert proc.returncode == 0, (verb, proc.stderr)
    # An old run beside a new one: compared on outcome and signal alone, so nothing differs.
    proc = crashmatrix("compare", tmp_path / "old", tmp_path / "new", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "No cell differs" in proc.stdout


# A program that talks to a terminal as torch and Lightning do: bold and colour escapes, a progress
# bar redrawn with carriage returns, and an error whose tail holds the cell's shapes and the time.
ESCAPING_APP = r"""
import sys, time
size = int(sys.argv[1].split("=")[1])
print("\x1b[1mGPU available:\x1b[0m False, used: False", flush=True)
print("Epoch 0: \x1b[32m 50%\x1b[0m\rEpoch 0: \x1b[32m100%\x1b[0m", file=sys.stderr, flush=True)
raise RuntimeError(
    f"\x1b[1mGiven groups=1, weight of size [16, 3, 3, 3], expected input[4, 1, {size}, {size}]\x1b[0m"
    f" to have 3 channels, but got 1 channels instead (at {time.strftime('%Y-%m-%d %H:%M:%S')}"
    f" after {time.perf_counter() % 100:.3f} s)"
)
"""


@pytest.mark.slow
def test_escape_codes_and_variable_tails_stay_out_of_results_csv(tmp_path, write):
    app = write("escaping.py", ESCAPING_APP)
    path = write(
        "esc.yaml",
        f"""\
name: esc
command: [python, {app}]
axes:
  size: [32, 30]
timeout: 60
""",
    )
    rows = run_rows(path, tmp_path, "--jobs", "2")
    raw = (tmp_path / "run" / "results.csv").read_bytes()
    assert b"\x1b" not in raw and b"[1m" not in raw and b"[0m" not in raw and b"\r" not in raw.replace(b"\r\n", b"")
    assert [r["outcome"] for r in rows] == ["fail", "fail"]
    for r in rows:
        assert r["error"].startswith("RuntimeError: Given groups=1, weight of size [16, 3, 3, 3], expected input[4, 1,")
    # One failure, one signature: the shapes, the timestamp and the duration differ, the failure does not.
    (signature,) = {r["signature"] for r in rows}
    assert signature.startswith("RuntimeError: Given groups=N, weight of size […], expected input[…] to have N")
    assert signature.endswith(" in escaping.py:<module>")  # the program's frame (grouping 2)
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert "\x1b" not in summary


@pytest.mark.parametrize(
    "where, signed",
    [
        # the program's own C helper's function: two faults in two functions from one line are two failures
        (
            "libcodec.so (decode_header+0xc); app/io.py:24 in decode",
            "killed_by_signal in libcodec.so:decode_header; app/io.py:decode",
        ),
        (
            "ext.so (gather_rows(at::Tensor, at::Tensor)+0x7ed); train.py:53 in step",
            "killed_by_signal in ext.so:gather_rows; train.py:step",
        ),
        # the C runtime (the probe's os.kill of its own rank, libc's kill) and an unnamed frame: no place of their own
        ("libc.so.6 (kill+0x7); probes/ddp.py:40 in _train_rank", "killed_by_signal in probes/ddp.py:_train_rank"),
        ("libc.so.6 (+0x156219); app/io.py:24 in decode", "killed_by_signal in app/io.py:decode"),
    ],
)
def test_a_death_by_signal_is_signed_by_the_native_function_a_backtrace_names(where, signed):
    from crashmatrix.verdict.signature import KILLED_BY_SIGNAL, with_place

    assert with_place(KILLED_BY_SIGNAL, where) == signed
