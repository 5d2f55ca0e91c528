"""A failed assert() in the program's own native code (a C helper built with gcc, called through ctypes): the
process dies by SIGABRT after glibc prints `python: .../clip.c:5: clip_rows: Assertion `lo < hi' failed.`.
Like a CUDA kernel's assertion, the file, function and condition are the failure: two asserts reached from one
line of Python are two failures, and `where` names the assert's own file and line before the program's frame.

Run alone first (2026-11-30, gcc 12.2, glibc 2.36): `python clipper.py check=range` printed `python3:
/tmp/clip-.../clip.c:5: clip_rows: Assertion `lo < hi' failed.` and died by SIGABRT (the shell's 134);
`check=count` the same for `clip.c:4: ... n > 0`; `check=none` printed `clipped 4` and exited 0; `check=worker`
(the same call in a DataLoader worker's __getitem__) printed one batch, the range assertion from the worker, then the
main's `RuntimeError: DataLoader worker (pid N) is killed by signal: Aborted.` and, from it, `... exited
unexpectedly` (exit 1).
"""

from __future__ import annotations

import shutil

import pytest
from conftest import crashmatrix, rows_of

pytestmark = [
    pytest.mark.slow,  # four live cells (one imports torch, for its DataLoader worker; the others a C helper alone)
    pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build the program's C helper"),
]

PROGRAM = r'''
import ctypes, os, subprocess, sys, tempfile

SOURCE = """
#include <assert.h>
int clip_rows(double *x, int n, double lo, double hi) {
    assert(n > 0);
    assert(lo < hi);
    for (int i = 0; i < n; i++) x[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
    return n;
}
"""


def build():
    folder = tempfile.mkdtemp(prefix="clip-")
    src, lib = os.path.join(folder, "clip.c"), os.path.join(folder, "libclip.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-shared", "-fPIC", "-o", lib, src], check=True)
    return ctypes.CDLL(lib)


def clip(lib, values, lo, hi):
    buf = (ctypes.c_double * len(values))(*values)
    return lib.clip_rows(buf, len(values), ctypes.c_double(lo), ctypes.c_double(hi))


def in_a_worker():
    import torch

    class Rows(torch.utils.data.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return clip(build(), [0.5, 2.0], 1.0 if i == 3 else 0.0, 0.5)

    for batch in torch.utils.data.DataLoader(Rows(), num_workers=1, batch_size=2):
        print("batch", batch.tolist(), flush=True)


def main():
    check = dict(a.split("=", 1) for a in sys.argv[1:])["check"]
    if check == "worker":
        return in_a_worker()
    lib = build()
    values = [] if check == "count" else [0.5, 2.0, -1.0, 3.5]
    lo, hi = (1.0, 0.0) if check == "range" else (0.0, 1.0)
    print("clipped", clip(lib, values, lo, hi), flush=True)


main()
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("native-assert")
    (base / "clipper.py").write_text(PROGRAM)
    (base / "m.yaml").write_text(
        f"name: native-assert\ncommand: [python, {base / 'clipper.py'}]\ninject: true\n"
        "axes:\n  check: [range, count, none, worker]\ntimeout: 60\n"
    )
    done = crashmatrix("run", base / "m.yaml", "--out", base / "run", "--jobs", "2", cwd=base)
    assert done.returncode in (0, 1), done.stderr
    return {row["check"]: row for row in rows_of(base / "run")}


def test_an_assert_in_native_code_is_signed_by_its_file_function_and_condition(run):
    assert (run["range"]["outcome"], run["range"]["signal"]) == ("crash", "SIGABRT")
    assert run["range"]["signature"] == "clip.c: clip_rows: lo < hi"
    assert run["count"]["signature"] == "clip.c: clip_rows: n > 0"  # the other assert on the same Python line
    assert run["none"]["outcome"] == "pass"


def test_an_assert_in_native_code_is_placed_at_the_assert_then_the_programs_call(run):
    assert run["range"]["where"] == "clip.c:5 in clip_rows; clipper.py:26 in clip"
    assert run["count"]["where"] == "clip.c:4 in clip_rows; clipper.py:26 in clip"
    assert run["range"]["error"].endswith("clip.c:5: clip_rows: Assertion `lo < hi' failed.")


def test_a_workers_assert_in_native_code_is_signed_and_placed_the_same_way(run):
    worker = run["worker"]
    assert (worker["outcome"], worker["signal"]) == ("worker_crash", "SIGABRT")
    assert worker["signature"] == run["range"]["signature"]  # the same assertion, whichever process failed it
    assert worker["where"] == "clip.c:5 in clip_rows; clipper.py:26 in clip"
