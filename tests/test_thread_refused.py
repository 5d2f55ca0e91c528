"""A thread the OS refused under the program's own address-space limit is memory that ran out (`oom`).

Python says only `RuntimeError: can't start new thread`, whichever limit refused the thread's stack (RLIMIT_AS,
RLIMIT_NPROC, a container's pids limit). The fiftieth and ninety-fourth held-out sets' programs capped their own
address space (`resource.setrlimit(RLIMIT_AS, ...)`) and then started a pool of threads: their truths say `oom`, and
the rows said `fail`. Under inject the main process now records the address-space limit it ended under, and the
verdict reads it.

Run alone (2026-12-01, Python 3.11.7): THREADS below exits 1 with that RuntimeError from `threading.start` at
`start_decoders`, 3 of 3 runs. Cost: one live cell without torch."""

import pytest
from conftest import one_injected_cell

from crashmatrix.verdict.classify import classify

THREADS = """\
import resource
import threading
import time


def mapped_bytes():
    with open("/proc/self/status") as f:
        return int(next(x for x in f if x.startswith("VmSize:")).split()[1]) * 1024


def start_decoders(n=64):
    threads = [threading.Thread(target=time.sleep, args=(0.5,)) for _ in range(n)]
    for t in threads:
        t.start()
    return threads


_, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (mapped_bytes() + (64 << 20), hard))
start_decoders()
"""

REFUSED = """\
Traceback (most recent call last):
  File "/app/thr.py", line 14, in start_decoders
    t.start()
  File "/usr/lib/python3.11/threading.py", line 964, in start
    _start_new_thread(self._bootstrap, ())
RuntimeError: can't start new thread
"""


def test_a_refused_thread_is_oom_only_under_an_address_space_limit():
    assert classify(1, stderr=REFUSED, report={"address_space_cap_mb": 84.1}).outcome.value == "oom"
    # no limit recorded (no inject, or RLIMIT_NPROC's refusal): Python's words alone do not say memory
    assert classify(1, stderr=REFUSED, report={}).outcome.value == "fail"


@pytest.mark.slow  # a live cell
def test_a_program_that_capped_its_address_space_and_started_threads_is_oom_at_its_start(tmp_path):
    row, _cell = one_injected_cell(tmp_path, "thr", THREADS)
    assert row["outcome"] == "oom", row
    assert row["error"].startswith("RuntimeError: can't start new thread (under an address-space limit of "), row
    assert row["where"].endswith("thr.py:14 in start_decoders"), row


def test_no_address_space_cap_is_reported_where_the_process_limit_may_have_refused(monkeypatch):
    # a review's program: RLIMIT_AS 16 GiB and RLIMIT_NPROC 6, run as a user (root is exempt from RLIMIT_NPROC):
    # the process limit refused the thread, and the row said oom. Where the user's threads come near RLIMIT_NPROC,
    # no cap is reported, and the verdict stays `fail`
    import resource

    from crashmatrix.incell import injection

    limits = {resource.RLIMIT_AS: (16 << 30, resource.RLIM_INFINITY), resource.RLIMIT_NPROC: (6, 6)}
    monkeypatch.setattr(resource, "getrlimit", lambda which: limits[which])
    monkeypatch.setattr(injection.os, "geteuid", lambda: 65534)
    monkeypatch.setattr(injection, "_users_threads", lambda: 5)
    assert injection._address_space_cap_mb() is None
    monkeypatch.setattr(injection.os, "geteuid", lambda: 0)  # root: RLIMIT_NPROC does not bind
    assert injection._address_space_cap_mb() == 16384
    limits[resource.RLIMIT_NPROC] = (100_000, 100_000)  # a user far from the process limit
    monkeypatch.setattr(injection.os, "geteuid", lambda: 65534)
    assert injection._address_space_cap_mb() == 16384
