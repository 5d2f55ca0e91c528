"""A non-finite value a failing run printed before it failed (pure; never imports torch).

A loss that became nan epochs before the error that ended the run is often where the run went wrong: a
checkpoint saved only when the loss improves is never written (`FileNotFoundError` when it is loaded), a
sampler is given nan probabilities, an early-stopping callback finds no best score. The error names none of
that; the run's own lines do (`epoch 0 train nan val nan`, `loss=nan`, numpy's `RuntimeWarning: invalid value
encountered in divide`). ISSUE.md quotes the first such line, as a lead, not as the verdict.
"""

from __future__ import annotations

import re

# nan or inf as a value of its own (`val nan`, `loss=inf`, `-inf`), not inside a word (`finance`, `info`), a
# dotted name (`math.inf`), a call, or a quoted word (`float("nan")` in printed code, CUDA's assert's `inf`)
_NON_FINITE = re.compile(r"(?<![\w.'\"`])[-+]?(?:nan|inf(?:inity)?)(?![\w.(\"'`])", re.I)
# a line that reads as a measurement: a number or a metric's name beside the value
_MEASURED = re.compile(r"\d|loss|grad|norm|score|metric", re.I)
# numpy's and pandas' warnings as a non-finite value is made
_WARNED = re.compile(r"RuntimeWarning: (?:invalid value|divide by zero|overflow) encountered")
_TRACEBACK = "Traceback (most recent call last):"


def first_line(stdout: str, stderr: str) -> str:
    """The first line of the run's stdout, then of its stderr before its first traceback, that shows a non-finite
    value as a measurement; "" where none does."""
    for text in (stdout, stderr.split(_TRACEBACK, 1)[0]):
        for line in text.splitlines():
            said = line.strip()
            if not said or line[:1].isspace():  # a traceback's or a warning's quoted source line
                continue
            if _WARNED.search(said) or (_NON_FINITE.search(said) and _MEASURED.search(said)):
                return said if len(said) <= 200 else said[:199] + "…"
    return ""
