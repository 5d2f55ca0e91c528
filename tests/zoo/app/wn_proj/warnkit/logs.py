"""The run's log: a stream handler that refuses to swallow a broken log line, and warnings sent to the log."""

import logging
import sys
import warnings

log = logging.getLogger("warnkit")


class StrictHandler(logging.StreamHandler):
    """A log line that cannot be formatted is a bug: raise it instead of printing `--- Logging error ---`."""

    def handleError(self, record: logging.LogRecord) -> None:
        raise


def setup_logging(strict: bool) -> None:
    handler = StrictHandler(sys.stderr) if strict else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)


def _warning_to_log(message, category, filename, lineno, file=None):
    log.warning("%s:%s: %s: %s", filename, lineno, category.__name__, message)


def warnings_to_log() -> None:
    """Warnings go to the run's log, with the rest of its lines (written for Python 2.6's signature)."""
    warnings.showwarning = _warning_to_log
