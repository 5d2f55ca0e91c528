"""The documentation site builds with `mkdocs build --strict`: a broken link, an anchor that is not there or a
page left out of the nav is an error (mkdocs.yml's validation), as `make docs` builds it."""

import importlib.util
import os
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow  # the site's strict build

needs_mkdocs = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
    reason="mkdocs and mkdocs-material are not installed (the `docs` extra: pip install -e '.[docs]')",
)


@needs_mkdocs
def test_the_site_builds_strict(tmp_path):
    site = tmp_path / "site"
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    # the verbs' reference, generated from the parser by the hook: every verb, with its examples
    cli = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for verb in ("run", "rerun", "show", "report", "compare", "bisect", "hunt", "explain", "resolve", "init"):
        assert f"crashmatrix {verb} --help" in cli
    assert "examples:" in cli


def test_the_cli_page_is_the_parsers_help():
    # without mkdocs too: the generator writes every verb's help as argparse prints it
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    try:
        import gen_cli_reference
    finally:
        sys.path.pop(0)
    page = gen_cli_reference.page()
    assert page.startswith("# Command line\n")
    assert "usage: crashmatrix bisect" in page
    assert "crashmatrix init src/train.py --gpus-per-cell 4" in page
