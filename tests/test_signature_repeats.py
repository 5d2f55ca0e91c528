"""One failure, one signature over repeats; two failures, two (DESIGN.md, `signature`).

Real programs, each run 3 times (tests/apps/sig_repeats.py, whose docstring holds what each does when run
alone): under torchrun with 2 gloo ranks, a rank that runs out of batches and ends (its peer's gloo error
names a port that changes every run) and a collective of another shape on each rank (rank 0 aborts through
C++'s terminate); alone, two different segfaults. One run of both matrices, shared by the assertions.
"""

import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT, rows_of

APP = os.path.join(ROOT, "tests", "apps", "sig_repeats.py")
BIN = os.path.dirname(sys.executable)  # torchrun, the console script, is beside the interpreter


def _matrix(base, name: str, command: str, faults: list[str]) -> str:
    path = base / f"{name}.yaml"
    path.write_text(
        f"name: {name}\ncommand: {command}\naxes:\n  fault: [{', '.join(faults)}]\nrepeats: 3\ntimeout: 120\n"
    )
    return str(path)


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict[str, list[dict]]:
    """Each fault's 3 rows, from two matrices run side by side: the torchrun cells 2 at a time, and the
    single-process ones (under a second each) beside them."""
    base = tmp_path_factory.mktemp("repeats")
    ranked = _matrix(base, "ranked", f"[torchrun, --nproc_per_node=2, {APP}]", ["peer_gone", "mismatch"])
    alone = _matrix(base, "alone", f"[python, {APP}]", ["null_header", "deep_nesting"])
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""), PYTHONPATH=ROOT)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "crashmatrix", "run", m, "--out", str(base / name), "--jobs", jobs],
            cwd=base,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for m, name, jobs in ((ranked, "ranked", "2"), (alone, "alone", "1"))
    ]
    for p in procs:
        _out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    found: dict[str, list[dict]] = {}
    for name in ("ranked", "alone"):
        for r in rows_of(base / name):
            found.setdefault(r["fault"], []).append(r)
    return found


def _line_of(code: str) -> int:
    with open(APP) as f:
        return next(n for n, line in enumerate(f, 1) if code in line)


def _kinds(rows: list[dict]) -> set:
    return {(r["outcome"], r["signal"], r["signature"]) for r in rows}


def test_every_fault_keeps_one_signature_over_its_3_repeats(rows):
    assert sorted(rows) == ["deep_nesting", "mismatch", "null_header", "peer_gone"]
    for fault, runs in rows.items():
        assert len(runs) == 3 and len(_kinds(runs)) == 1, (fault, [r["signature"] for r in runs])


def test_four_failures_are_four_kinds(rows):
    kinds = [_kinds(runs).pop() for runs in rows.values()]
    assert len(set(kinds)) == 4, kinds
    assert len({k[2] for k in kinds}) == 4, kinds  # the signatures alone tell them apart


def test_a_peers_closed_connection_keeps_no_port(rows):
    # Which rank the verdict names is ranks.py's to say; whatever it is, no address or port is in its signature.
    for r in rows["peer_gone"]:
        assert r["outcome"] != "pass", r
        assert "127.0.0.1" not in r["signature"] and not re.search(r":\d{3,}", r["signature"]), r["signature"]


def test_two_segfaults_are_signed_by_the_programs_own_frame(rows):
    (null,) = _kinds(rows["null_header"])
    (deep,) = _kinds(rows["deep_nesting"])
    assert null == ("crash", "SIGSEGV", "killed_by_signal in tests/apps/sig_repeats.py:parse_header")
    assert deep == ("crash", "SIGSEGV", "killed_by_signal in tests/apps/sig_repeats.py:nest_config")


def test_a_collective_mismatch_is_told_by_terminates_what_line(rows):
    for r in rows["mismatch"]:
        assert (r["outcome"], r["signal"], r["rank"]) == ("rank_crash", "SIGABRT", "0"), r
        assert r["error"].startswith("what(): [enforce fail at"), r["error"]
        assert "Is there a distributed collective mismatch in your code?" in r["error"]
        assert r["signature"] == (
            "gloo::EnforceNotMet: op.preamble.length <= op.nbytes. 8 vs 4. Received data size doesn't match "
            "expected size. Is there a distributed collective mismatch in your code?"
        )
        # gloo's thread aborted; faulthandler's dump of the program's thread places it
        assert r["where"].endswith(f"tests/apps/sig_repeats.py:{_line_of('dist.all_reduce(counts)')} in class_counts")
