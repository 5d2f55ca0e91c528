"""A growth finding's creating line read from a run directory kept inside the program's checkout and read in
another clone (docs/examples/, results/reference/): the census names files by the clone it ran in."""

from crashmatrix.answers import kept


def test_a_frame_of_another_clone_is_found_in_this_one(tmp_path):
    clone = tmp_path / "clone"
    (clone / "tests" / "apps").mkdir(parents=True)
    (clone / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (clone / "tests" / "apps" / "keeps.py").write_text("def main():\n    kept.append(step())\n")
    cell = clone / "docs" / "examples" / "growth" / "memory_trace" / "cells" / "c0-r0"
    cell.mkdir(parents=True)
    elsewhere = "/no/such/clone/tests/apps/keeps.py"
    census = {
        "step": 80,
        "first_step": 10,
        "tensors": [{"dtype": "float32", "shape": [4], "count": [9, 79], "mb": [1.0, 9.0], "frames": [[elsewhere, 2]]}],
    }
    found = kept.from_census(kept._here(census, str(cell)))
    assert found is not None and found.place == "tests/apps/keeps.py:2 in main"
    # nowhere to be found: the path as the census gave it, its function unknown
    lost = {**census, "tensors": [{**census["tensors"][0], "frames": [["/no/such/clone/gone.py", 2]]}]}
    assert kept.from_census(kept._here(lost, str(cell))).place == "gone.py:2 in <module>"
