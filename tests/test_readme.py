"""README.md's session, run for real: every line it shows must appear in what the commands print.

The session is the block of README.md that starts with `$ cd examples/quickstart`. Its commands run in a
copy of examples/quickstart (one run of 8 small cells, 2 at a time, then explain and resolve); each line
the README shows under a command must be a whole line of that command's real output, where `…` stands for
text the README trimmed. A line that is `…` alone stands for lines left out.
"""

import os
import re
import shutil

import pytest
from conftest import ROOT, crashmatrix, rows_of

pytestmark = pytest.mark.slow  # the README's session run for real

README = os.path.join(ROOT, "README.md")


def session() -> list[tuple[str, list[str]]]:
    """(command, the lines shown under it) for each `$ ` line of the README's session block."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", open(README, encoding="utf-8").read(), re.S | re.M)
    (block,) = [b for b in blocks if b.startswith("$ cd examples/quickstart\n")]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def pattern(shown: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in shown.split("…")))


def test_the_readme_session_is_real(tmp_path):
    steps = session()
    assert steps[0] == ("cd examples/quickstart", [])
    shutil.copytree(os.path.join(ROOT, "examples", "quickstart"), tmp_path / "quickstart")
    for command, shown in steps[1:]:
        verb, *args = command.split()
        assert verb == "crashmatrix", command
        out = crashmatrix(*args, cwd=tmp_path / "quickstart", timeout=600)
        assert out.returncode == 0, (command, out.stderr)
        real = out.stdout.splitlines()
        for line in shown:
            if line.strip() in ("", "…"):
                continue
            assert any(pattern(line).fullmatch(r) for r in real), (
                f"`{command}` printed no line like:\n{line}\n\n{out.stdout}"
            )
    # The forked worker's own last words stay in its cell's stderr.log beside the dump it wrote first: under
    # crashmatrix the worker dumps its stack before torch's handler prints them.
    crashed = [r for r in rows_of(tmp_path / "quickstart" / "qs") if r["outcome"] == "worker_crash"]
    assert crashed
    for row in crashed:
        stderr = (tmp_path / "quickstart" / "qs" / row["log_dir"] / "stderr.log").read_text(errors="replace")
        assert "ERROR: Unexpected segmentation fault encountered in worker." in stderr


def test_the_readme_starts_with_the_two_commands_and_both_doors_and_stays_short():
    text = open(README, encoding="utf-8").read()
    assert len(text.splitlines()) < 200
    first_block = re.search(r"^```[a-z]*\n(.*?)^```$", text, re.S | re.M).group(1)
    # make matrix and make test, then the two doors of issue 49: a failed job's log, and a command as typed
    assert [line.split()[:2] for line in first_block.splitlines()] == [
        ["make", "matrix"],
        ["make", "test"],
        ["crashmatrix", "diagnose"],
        ["crashmatrix", "run"],
    ]
