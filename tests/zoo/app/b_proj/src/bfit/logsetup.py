"""Logging to stderr, as the team's scripts all do; `strict=true` also turns every warning into an error, so that
a deprecation or a broadcasting warning stops a run in CI instead of scrolling by."""

import logging
import sys
import warnings


def setup_logging(cfg) -> logging.Logger:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if cfg.strict:
        warnings.simplefilter("error")
    return logging.getLogger("bfit")
