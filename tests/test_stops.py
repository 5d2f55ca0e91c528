"""StopRegistry: a stop from one thread ends the cells another thread's engine owns."""

import os
import sys
import uuid

from crashmatrix.engine import loop
from crashmatrix.process import supervise
from crashmatrix.process.stops import StopRegistry


def test_a_stop_and_the_owning_engine_both_end_a_run_and_close_its_pidfd_once(tmp_path):
    """bisect --jobs 2: Ctrl-C's stop_everything() (the main thread) ends a worker thread's cell, and that
    thread's engine, seeing it end, ends it too. Each closed the pidfd: the second os.close raised EBADF in
    the worker, or closed whatever file had taken the number meanwhile (the main thread writing bisect.json)."""
    token = uuid.uuid4().hex
    env = {**os.environ, supervise.TOKEN_VAR: token}
    argv = [sys.executable, "-c", "import time; time.sleep(60)"]
    launch = supervise.Launch(argv, env, str(tmp_path), str(tmp_path / "out"), str(tmp_path / "err"), token)
    running = supervise.start(launch, None)
    assert running.pidfd is not None
    stops = StopRegistry()
    assert stops.register(running)
    stops.stop_everything()  # the main thread's stop
    assert running.popen.poll() is not None
    taken = os.open(tmp_path / "bisect.json", os.O_WRONLY | os.O_CREAT)  # the number, reused at once
    try:
        loop._end_tree(running, 0.0, stops)  # the worker thread's engine, ending its own run
        os.write(taken, b"{}")  # still this file's descriptor
    finally:
        os.close(taken)
