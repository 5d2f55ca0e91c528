"""Every verb's --help ends with examples of the verb as users call it (issue 51, item 3)."""

import argparse

from conftest import ROOT, crashmatrix

from crashmatrix.cli import _parser


def _verbs() -> dict[str, argparse.ArgumentParser]:
    (verbs,) = (a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(verbs.choices)


def test_every_verbs_help_ends_with_its_examples():
    verbs = _verbs()
    assert len(verbs) >= 13
    for name, verb in verbs.items():
        text = verb.format_help()
        tail = text[text.rfind("examples:") :]
        assert "examples:" in text, f"`crashmatrix {name} --help` has no examples epilogue"
        lines = [line.strip() for line in tail.splitlines()[1:] if line.strip()]
        assert 1 <= len(lines) <= 2, f"{name}: one or two examples, not {lines}"
        assert all(line.startswith(f"crashmatrix {name}") for line in lines), f"{name}: {lines}"


def test_the_examples_keep_their_lines_on_the_real_command_line():
    # RawDescriptionHelpFormatter: each example on its own line, as written, not refilled into one paragraph.
    out = crashmatrix("bisect", "--help", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip().endswith(
        "examples:\n"
        "  crashmatrix bisect results/quickstart\n"
        "  crashmatrix bisect matrix.yaml --good start_method=spawn --bad start_method=fork num_workers=2"
    )
