"""One version, said three times: pyproject.toml, `crashmatrix --version` and CHANGELOG.md's newest release."""

import os
import re

from conftest import ROOT, crashmatrix
from installed import pyproject_version


def newest_release() -> str:
    """The version of CHANGELOG.md's first release heading (`## [0.1.0] - 2026-11-29`), past Unreleased."""
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        for line in f:
            found = re.match(r"## \[(\d[^\]]*)\] - \d{4}-\d{2}-\d{2}$", line.strip())
            if found:
                return found.group(1)
    raise AssertionError("CHANGELOG.md has no release heading `## [X.Y.Z] - YYYY-MM-DD`")


def test_pyproject_version_and_changelog_agree():
    out = crashmatrix("--version", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"crashmatrix {pyproject_version()}\n"
    assert newest_release() == pyproject_version()
