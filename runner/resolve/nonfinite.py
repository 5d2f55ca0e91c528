"""A non-finite value a failing run printed before it failed (pure; never imports torch).

A loss that became nan epochs before the error that ended the run is often where the run went wrong: a
checkpoint saved only when the loss improves is never written (`FileNotFoundError` when it is loaded), a
sampler is given nan probabilities, an early-stopping callback finds no best score. The error names none of
that; the run's own lines do (`epoch 0 train nan val nan`, `loss=nan`, numpy's `RuntimeWarning: invalid value
encountered in divide`). ISSUE.md quotes the first such line, as a lead, not as the verdict.
"""

from __future__ import annotations

import re

# nan or inf as the value a metric was measured at (`train nan val nan`, `loss=inf`, `val_acc: nan`): after a
# metric's name, not a setting's (`max_grad_norm=inf`, `patience=inf`, `best=inf`), a path (`/data/nan/`), a log
# level (`[INF]`), a mask's `-inf` or a sentence (`no nan found`)
_METRIC_NAN = re.compile(
    r"\b(?:\w*_)?(?:loss|train|val|valid|validation|test|eval|acc|accuracy|ppl|perplexity|mse|mae|rmse|metric)"
    r"(?:_\w+)?[\"']?\s*[=:]?\s*[-+]?(?:nan|inf(?:inity)?)\b(?![\w.(\"'`/])",
    re.I,
)
# numpy's and pandas' warnings as a non-finite value is made
_WARNED = re.compile(r"RuntimeWarning: (?:invalid value|divide by zero|overflow) encountered")
_TRACEBACK = "Traceback (most recent call last):"


def first_line(stdout: str, stderr: str) -> str:
    """The first line of the run's stdout, then of its stderr before its first traceback (the two streams'
    order is not kept), that shows a metric measured as nan or inf; "" where none does."""
    for text in (stdout, stderr.split(_TRACEBACK, 1)[0]):
        for line in text.splitlines():
            said = line.strip()
            if not said or line[:1].isspace():  # a traceback's or a warning's quoted source line
                continue
            if _WARNED.search(said) or _METRIC_NAN.search(said):
                return said if len(said) <= 200 else said[:199] + "…"
    return ""
