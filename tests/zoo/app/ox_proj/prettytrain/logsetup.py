"""The project's log: every line of a record, a traceback's lines included, prefixed with the time, the
process's name and the level, as log collectors want one record per line."""

import logging
import sys


class EveryLineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        prefix = f"{self.formatTime(record, '%H:%M:%S')} [{record.processName}] {record.levelname:<5} | "
        return "\n".join(prefix + line for line in text.split("\n"))


def setup(stream=None, level: int = logging.INFO) -> logging.Logger:
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(EveryLineFormatter("%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    return logging.getLogger("prettytrain")


def to_file(path: str) -> None:
    handler = logging.FileHandler(path)
    handler.setFormatter(EveryLineFormatter("%(message)s"))
    logging.getLogger().handlers[:] = [handler]
