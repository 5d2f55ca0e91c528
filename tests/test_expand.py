"""Expansion: product, GitHub Actions' exclude/include, stable cell ids, values spelled verbatim."""

from crashmatrix.cell import cell_id_of
from crashmatrix.matrix.expand import columns, expand
from crashmatrix.matrix.spec import load_matrix

BASE = """\
name: t
command: [python, -c, "pass"]
axes:
  os: [linux, windows]
  node: [14, 16]
"""


def test_product_in_file_order(write):
    cells = expand(load_matrix(write("m.yaml", BASE)))
    assert [c.values for c in cells] == [
        {"os": "linux", "node": 14},
        {"os": "linux", "node": 16},
        {"os": "windows", "node": 14},
        {"os": "windows", "node": 16},
    ]


def test_exclude_partial_match_then_include_like_github_actions(write):
    m = load_matrix(
        write(
            "m.yaml",
            BASE
            + """\
exclude:
  - {os: windows, node: 14}
include:
  - {os: linux, npm: 6}          # extends every linux cell
  - {node: 16, color: green}     # extends every node=16 cell, without overwriting
  - {os: windows, node: 14}      # was excluded: includes come after excludes, so it returns
  - {os: macos, node: 18}        # fits no cell: a cell of its own
""",
        )
    )
    cells = [c.values for c in expand(m)]
    assert cells == [
        {"os": "linux", "node": 14, "npm": 6},
        {"os": "linux", "node": 16, "npm": 6, "color": "green"},
        {"os": "windows", "node": 16, "color": "green"},
        {"os": "windows", "node": 14},
        {"os": "macos", "node": 18},
    ]
    assert columns(m, expand(m)) == ["os", "node", "npm", "color"]


def test_cell_id_is_stable_and_order_free():
    a = cell_id_of({"num_workers": 4, "pin_memory": True, "start_method": "fork"})
    b = cell_id_of({"start_method": "fork", "pin_memory": True, "num_workers": 4})
    assert a == b and len(a) == 10
    # The spelling is what counts: the same on every machine, whatever YAML typed it as.
    assert cell_id_of({"num_workers": "4"}) == cell_id_of({"num_workers": 4})
    assert cell_id_of({"pin_memory": True}) != cell_id_of({"pin_memory": False})
    # A known value, so a change to the hashing (which would break joins across machines) is caught.
    assert cell_id_of({"mode": "segv"}) == "9032550245"


def test_dotted_axes_and_overrides(write):
    path = write(
        "m.yaml",
        BASE
        + """\
  cudnn.benchmark: [false, true]
  env.CUDA_LAUNCH_BLOCKING: ["0", "1"]
repeats: 1
""",
    )
    m = load_matrix(path, ["axes.cudnn.benchmark=[true]", "+axes.env.NCCL_DEBUG=[INFO]", "~axes.os", "repeats=3"])
    assert list(m.axes) == ["node", "cudnn.benchmark", "env.CUDA_LAUNCH_BLOCKING", "env.NCCL_DEBUG"]
    assert m.axes["cudnn.benchmark"] == [True]
    assert m.repeats == 3
    assert len(expand(m)) == 4


def test_pairwise_honours_excludes_spelled_differently(write):
    m = load_matrix(
        write(
            "m.yaml",
            """\
name: p
command: [python, -c, "pass"]
strategy: pairwise
axes:
  precision: ["32", "16-mixed", "bf16-mixed"]
  num_workers: [0, 2, 4]
  pin_memory: [false, true]
  start_method: [fork, spawn, forkserver]
exclude:
  - {precision: 32, pin_memory: true}
include:
  - {start_method: spawn, num_workers: 8}
""",
        )
    )
    cells = [c.values for c in expand(m)]
    assert not any(c.get("precision") == "32" and c.get("pin_memory") is True for c in cells)
    assert {"start_method": "spawn", "num_workers": 8} in cells
    # every other pair is still covered
    from itertools import combinations as pairs

    base = [c for c in cells if len(c) == 4]
    for a, b in pairs(m.axes, 2):
        for va in m.axes[a]:
            for vb in m.axes[b]:
                if {a, b} == {"precision", "pin_memory"} and "32" in (va, vb) and True in (va, vb):
                    continue
                assert any(c[a] == va and c[b] == vb for c in base), (a, va, b, vb)
    assert len(base) < 3 * 3 * 2 * 3
