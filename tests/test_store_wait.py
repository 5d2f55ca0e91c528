"""A store's wait that timed out at the program's own call is the program's key, not a collective's straggler
(the forty-third held-out set's dx_store_key_never_set, untrue there).

The truth, from `torchrun --nproc_per_node=2 tests/apps/store_key_never_set.py` run alone (2026-11-30, torch
2.13.0+cpu): exit 1 after 11 s. Rank 1 sets `ready-1` in a side TCPStore and sleeps (line 17); rank 0 waits for
`ready/1` at line 19, and c10d's socket warnings come 2 s later, then rank 0's traceback:
`torch.distributed.DistStoreError: wait timeout after 2000ms, keys: /ready/1` at store_key_never_set.py:19 in main.
torchrun then sends rank 1 SIGTERM and lists it among the failures (exitcode -15); the failure is rank 0's wait for
a key no rank sets, the program's. Before, the run took the store's timeout for a collective's, named rank 1
(asleep, outside any collective) as the rank the others waited for, and placed it at its sleep.
"""

import os
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

TORCHRUN = os.path.join(os.path.dirname(sys.executable), "torchrun")


@pytest.mark.slow  # a real torchrun job of 2 gloo ranks, 2 s of a store's wait
def test_a_store_wait_for_a_key_never_set_is_the_waiting_ranks_own_failure(tmp_path):
    app = os.path.join(ROOT, "tests", "apps", "store_key_never_set.py")
    (tmp_path / "m.yaml").write_text(
        f"name: store\ncommand: [{TORCHRUN}, --nproc_per_node=2, {app}]\ninject: true\naxes: {{x: [1]}}\n"
    )
    ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["rank"]) == ("fail", "0"), row
    assert row["error"] == "torch.distributed.DistStoreError: wait timeout after 2000ms, keys: /ready/1", row
    assert row["where"] == "tests/apps/store_key_never_set.py:19 in main", row
