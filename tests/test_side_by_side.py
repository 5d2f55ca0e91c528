"""Cells whose program binds a fixed port cannot run side by side: crashmatrix runs them again alone.

tests/apps/ddp_fixed_port.py is the DDP tutorial's form (the program sets MASTER_PORT itself); its docstring
has the truth from running it alone (it passes) and two at once (the second to bind fails with torch's
EADDRINUSE, and its rank 1 can break the other). Under `--jobs 2` that failure is crashmatrix's, not the
cell's values': recorded as it came, it sent the user after an axis that does not matter.
The test runs it with one rank in its own process (`ranks=1`): the same init_process_group on the same port
fails the same way, at a third of the torch processes (the two-rank form is examples/ddp_fixed_port.yaml's,
whose session the README shows).
"""

from __future__ import annotations

import os
import socket

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.engine import side_by_side

pytestmark = pytest.mark.slow  # DDP cells on one port

APP = os.path.join(ROOT, "tests", "apps", "ddp_fixed_port.py")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ddp_tutorial_cells_on_one_port_run_again_alone_and_pass(tmp_path):
    port = _free_port()
    (tmp_path / "m.yaml").write_text(
        f"name: tutorial\ncommand: [python, {APP}]\nparams: {{port: {port}, hold_s: 4, ranks: 1}}\n"
        "axes:\n  lr: [0.1, 0.001]\ntimeout: 120\n"
    )
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = rows_of(tmp_path / "run")
    assert [r["outcome"] for r in rows] == ["pass", "pass"], rows  # as each runs alone
    said = [line for line in proc.stdout.splitlines() if "runs again alone" in line]
    assert said and f"lost port {port} to a cell running beside it" in said[0], proc.stdout
    # the first try is kept, and it is torch's own line
    tries = [tmp_path / "run" / r["log_dir"] / "first-try.log" for r in rows]
    kept = "".join(t.read_text() for t in tries if t.exists())
    assert f"port: {port}, useIpv6: false, code: -98, name: EADDRINUSE" in kept, os.listdir(tmp_path / "run" / "cells")
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert f"failed only beside another cell: the program binds port {port}" in summary, summary


# Plain Python: a program that binds the port, holds it a moment and exits 0.
BINDS = "import socket, sys, time; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1].split('=')[1]))); time.sleep(1)"


def _two_copies_at_once(tmp_path, code: str, port: int) -> tuple[list[dict], str]:
    """`python -c code port=PORT copy=N` for copies 1 and 2 under --jobs 2: the rows and summary.md."""
    (tmp_path / "m.yaml").write_text(
        f'name: two\ncommand: [python, -c, "{code}"]\naxes:\n  port: [{port}]\n  copy: [1, 2]\ntimeout: 60\n'
    )
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return rows_of(tmp_path / "run"), (tmp_path / "run" / "summary.md").read_text()


def test_a_port_held_outside_fails_alone_too_and_is_recorded_so(tmp_path):
    with socket.socket() as held:  # something else of the machine's holds it
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        rows, summary = _two_copies_at_once(tmp_path, BINDS, port)
    assert [(r["outcome"], r["error"]) for r in rows] == [("fail", "OSError: [Errno 98] Address already in use")] * 2
    assert all((tmp_path / "run" / r["log_dir"] / "first-try.log").exists() for r in rows)
    assert "failed beside another cell and alone too: its port is held by something else here" in summary, summary


def test_a_run_that_fails_alone_for_its_own_reason_is_not_blamed_on_the_port(tmp_path):
    # seen on a lent H200: two torchrun cells of the zoo's collective mismatch on torchrun's default port 29500;
    # alone each failed with gloo's mismatch, and summary.md said the port was held by something else
    rows, summary = _two_copies_at_once(tmp_path, BINDS + "; raise ValueError('its own failure')", _free_port())
    assert [(r["outcome"], r["error"]) for r in rows] == [("fail", "ValueError: its own failure")] * 2
    assert "failed beside another cell, then alone for a reason of their own, not the port" in summary, summary
    assert "held by something else" not in summary


def test_a_lost_port_is_read_from_torchs_text_and_pythons():
    # torch 2.13's TCPStore, as a real run of tests/apps/ddp_fixed_port.py wrote it (above, the same text live)
    torch_line = (
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
        "address. port: 12355, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use"
    )
    assert side_by_side.lost_port("Traceback ...\n" + torch_line + "\n") == (torch_line, 12355)
    # torch before 2.2 (socket.cpp), as PyTorch's issues quote it
    old = "[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use)."
    assert side_by_side.lost_port(old) == (old, 29500)
    with socket.socket() as a, socket.socket() as b:
        a.bind(("127.0.0.1", 0))
        try:
            b.bind(a.getsockname())
        except OSError as e:
            python_line = f"OSError: {e}"
    assert side_by_side.lost_port(python_line) == (python_line, None)
    assert side_by_side.lost_port("RuntimeError: Connection closed by peer [127.0.0.1]:29500") is None
