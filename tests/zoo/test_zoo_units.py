"""The small classification fixes the zoo needed, as pure functions over the zoo's real text."""

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import forensics
from crashmatrix.verdict.classify import Verdict, classify
from crashmatrix.verdict.evidence import Evidence

# where two zoo hangs waited (crashmatrix's `where` of each, from stacks.txt), and where a repeat caught
# the first one a line further on
MAIN_WAITS = "main in wait_for_dataset (main_hang.py:9)"
MAIN_WAITS_NEXT_LINE = "main in wait_for_dataset (main_hang.py:8)"
WORKER_LOCKED = "main DataLoader _get_data (dataloader.py:1464); worker encode (fork_lock.py:24)"


def _hang(where: str) -> Verdict:
    timed_out = Verdict(Outcome.TIMEOUT, "", "timed out after 20 s", "hang")
    verdict, _where = forensics.refine(timed_out, Evidence(pid=1, started=0.0, hang=("clause", where)))
    return verdict


def test_two_hangs_in_two_places_are_two_signatures_and_one_place_is_one():
    assert _hang(MAIN_WAITS).signature == "hang: main in wait_for_dataset (main_hang.py:N)"
    assert _hang(MAIN_WAITS_NEXT_LINE).signature == _hang(MAIN_WAITS).signature
    assert (
        _hang(WORKER_LOCKED).signature
        == "hang: main DataLoader _get_data (dataloader.py:N); worker encode (fork_lock.py:N)"
    )


def test_a_hang_with_no_place_found_stays_hang():
    assert _hang("").signature == "hang"


# The zoo's loader_timeout mode alone (DataLoader(timeout=1), a worker stalled 30 s): its last lines.
LOADER_TIMED_OUT = """\
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1449, in _get_data
    raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
RuntimeError: DataLoader timed out after {seconds} seconds
"""


def test_a_loader_timeout_is_one_failure_whatever_timeout_the_program_set():
    for seconds in (1, 120):
        verdict = classify(
            1, stderr="Traceback (most recent call last):\n" + LOADER_TIMED_OUT.replace("{seconds}", str(seconds))
        )
        assert (verdict.outcome, verdict.signature) == (Outcome.FAIL, "loader_timeout")
        assert verdict.error == f"RuntimeError: DataLoader timed out after {seconds} seconds"
