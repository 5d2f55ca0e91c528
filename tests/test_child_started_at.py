"""A child process's exception raised in library frames alone is placed at that frame and at the program's call
that started the child (issue 52, item 4: `where` gives the program's frames; the twenty-fifth held-out set's
o_spawn_args_dict was untrue there).

The truth, from running o_proj's `python -m o_dist.launch case=o_spawn_args_dict` alone (HELDOUT25.md): exit 1.
`mp.spawn(worker, args=(cfg), nprocs=WORLD)` passes a dict where a tuple was meant, so each spawned child fails
at once in torch/multiprocessing/spawn.py:87 `fn(i, *args)` with `TypeError: worker() takes 3 positional
arguments but 9 were given`; the parent, at o_dist/launch.py:45 in main, raises ProcessRaisedException with the
child's traceback in its message. The child's traceback holds no frame of the program's: the program's line is
the parent's spawn call. The same for a DataLoader worker calling a worker_init_fn that takes no argument (the
twenty-fourth set's a_worker_init_fn_arity: torch's _worker_loop, then the loop at scripts/train.py:48).
"""

import os

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.verdict.exception_place import starting_call

RECORDED = os.path.join(ROOT, "tests", "zoo", "recorded")
O_PROJ = os.path.join(ROOT, "tests", "zoo", "app", "o_proj")


def _log(cell: str) -> str:
    with open(os.path.join(RECORDED, cell, "stderr.log"), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize(
    "cell, error, call",
    [
        (
            "heldout25/app-spawn/cells/b04f8843a7-r0",
            "TypeError: worker() takes 3 positional arguments but 9 were given",
            "launch.py:45 in main",
        ),
        (
            "heldout24/app/cells/fe8af9c13e-r0",
            "TypeError: seed_worker() takes 0 positional arguments but 1 was given",
            "train.py:48 in main",
        ),
    ],
)
def test_the_program_call_that_started_the_child_from_the_recorded_log(cell, error, call):
    assert starting_call(_log(cell), error).endswith(call)


def test_a_childs_own_frame_or_a_mains_exception_needs_no_starting_call():
    own = _log("heldout25/app-spawn/cells/b04f8843a7-r0").replace(
        '  File "/work/main/.venv/lib/python3.11/site-packages/torch/multiprocessing/spawn.py", line 87, in _wrap\n',
        '  File "/app/o_dist/launch.py", line 20, in worker\n',
    )
    assert starting_call(own, "TypeError: worker() takes 3 positional arguments but 9 were given") == ""
    main_only = (
        'Traceback (most recent call last):\n  File "/v/lib/python3.11/site-packages/yaml/parser.py", line 9, in p\n'
    )
    assert starting_call(main_only + "ValueError: bad\n", "ValueError: bad") == ""


@pytest.mark.slow
def test_a_spawned_childs_wrong_arguments_are_placed_at_the_programs_spawn_call(tmp_path):
    # one run of the real program under crashmatrix (inject, as the set ran it): a parent and two spawned children
    (tmp_path / "m.yaml").write_text(
        f"name: spawn-args\ncommand: [python, -m, o_dist.launch]\ncwd: {O_PROJ}\ninject: true\n"
        "axes: {case: [o_spawn_args_dict]}\ntimeout: 120\n"
    )
    ran = crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "fail", row
    assert row["where"] == "torch/multiprocessing/spawn.py:87 in _wrap; o_dist/launch.py:45 in main", row
    assert row["signature"].endswith("positional arguments but N were given in o_dist/launch.py:main"), row
