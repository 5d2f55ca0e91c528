"""`--gpus 0,1,2,3 --gpus-per-cell 2`: each running cell its own set of GPUs; the ddp probe's world size follows it.

No GPU here: what is checked is the assignment through CUDA_VISIBLE_DEVICES, which needs none. Untested on real GPUs.
"""

import pytest
from conftest import crashmatrix, rows_of

from crashmatrix.errors import BadInput
from crashmatrix.probes.ddp import world_size_for
from crashmatrix.process.gpus import gpu_sets

# Each cell records its GPUs, then waits (in the child, with a deadline) until the other cell of its pair
# has started too: cells 0 and 1 overlap for real, then 2 and 3, so a set handed to both would show here.
CELL = """\
import os, sys, time
i = int(sys.argv[1].split("=")[1])
open(f"started-{i}", "w").write(os.environ["CUDA_VISIBLE_DEVICES"])
deadline = time.monotonic() + 30
while sum(os.path.exists(f"started-{k}") for k in range(4)) < 2 * (i // 2) + 2:
    if time.monotonic() > deadline:
        sys.exit("the other cell of the pair never started")
    time.sleep(0.01)
print(os.environ["CUDA_VISIBLE_DEVICES"])
"""


@pytest.mark.slow
def test_gpus_per_cell_gives_running_cells_disjoint_sets(tmp_path):
    (tmp_path / "cell.py").write_text(CELL)
    (tmp_path / "m.yaml").write_text("name: g\ncommand: [python, cell.py]\naxes:\n  i: [0, 1, 2, 3]\ntimeout: 60\n")
    proc = crashmatrix(
        "run", "m.yaml", "--out", "run", "--gpus", "0,1,2,3", "--gpus-per-cell", "2", "--jobs", "4", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "; 2 at a time;" in proc.stdout  # capped at len(gpus) // per_cell
    rows = rows_of(tmp_path / "run")
    assert [r["outcome"] for r in rows] == ["pass"] * 4
    assert sorted(r["gpu"] for r in rows) == ["0,1", "0,1", "2,3", "2,3"]
    gpu = {r["i"]: r["gpu"] for r in rows}
    for r in rows:
        assert (tmp_path / "run" / r["log_dir"] / "stdout.log").read_text() == r["gpu"] + "\n"
    for a, b in (("0", "1"), ("2", "3")):  # each pair ran at once
        assert set(gpu[a].split(",")).isdisjoint(gpu[b].split(","))


@pytest.mark.parametrize(
    "ids,per_cell,sets",
    [
        ("0,1,2,3", 2, ["0,1", "2,3"]),
        ("0,1,2,3", None, ["0", "1", "2", "3"]),
        ("3, 1 ,7", 1, ["3", "1", "7"]),
        ("0,1,2,3,4", 2, ["0,1", "2,3"]),  # the fifth stays unused: a set is never partial
        ("0,1", 2, ["0,1"]),
    ],
)
def test_gpu_sets(ids, per_cell, sets):
    assert gpu_sets(ids, per_cell) == sets


@pytest.mark.parametrize(
    "ids,per_cell,message",
    [
        ("0,1", 3, "--gpus-per-cell 3: more than the 2 GPUs"),
        ("0,1", 0, "--gpus-per-cell: expected a whole number >= 1"),
        ("0,0", 1, "listed twice"),
        (",", 1, "--gpus: expected GPU ids"),
    ],
)
def test_bad_gpu_sets(ids, per_cell, message):
    with pytest.raises(BadInput, match=message):
        gpu_sets(ids, per_cell)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--gpus", "0,1", "--gpus-per-cell", "3"], "--gpus-per-cell 3: more than the 2 GPUs that --gpus 0,1 lists"),
        (["--gpus", "0,1", "--gpus-per-cell", "two"], "argument --gpus-per-cell: invalid int value: 'two'"),
        (["--gpus-per-cell", "2"], "--gpus-per-cell: goes with --gpus"),
    ],
)
def test_bad_gpu_options_exit_2(tmp_path, args, message):
    (tmp_path / "m.yaml").write_text("name: g\ncommand: [python, -c, pass]\naxes:\n  i: [0]\n")
    proc = crashmatrix("run", "m.yaml", *args, cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "results").exists()


# The ddp probe's rule, as a pure function of the device type and CUDA_VISIBLE_DEVICES: nothing is mocked,
# and no GPU count is asked (a real cuda cell would get "0,1" from --gpus-per-cell 2).
@pytest.mark.parametrize(
    "param,device,visible,expected",
    [
        ("auto", "cuda", "0,1", 2),
        ("auto", "cuda", "4,5,6,7", 4),
        ("auto", "cuda", "3", 1),
        ("auto", "cuda", None, 2),  # no set given: the probe's default
        ("auto", "cpu", "0,1,2,3", 2),  # ranks on CPU do not follow GPUs
        (3, "cuda", "0,1", 3),  # a set world_size wins
        ("4", "cpu", None, 4),
    ],
)
def test_ddp_world_size_follows_the_gpus_given(param, device, visible, expected):
    assert world_size_for(param, device, visible) == expected
