"""The small classification fixes the zoo needed, as pure functions over the zoo's real text."""

from crashmatrix.outcome import Outcome
from crashmatrix.verdict import forensics
from crashmatrix.verdict.classify import Verdict
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
