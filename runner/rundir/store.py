"""A run directory: matrix.yaml, env.json, results.csv (one row per finished run), cells/.

Each finished run writes cells/<cell_id>-r<k>/result.json atomically, then its
row is appended to results.csv in one write. A controller killed in between
loses nothing: on resume, a result.json without its row gains the row, and a
cell directory without result.json (a run in flight) is run again.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import io
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field

from crashmatrix.cell import CellRun, RunKey, run_dirname, spell
from crashmatrix.errors import BadInput
from crashmatrix.incell.atomic import write_json_atomic, write_text_atomic
from crashmatrix.outcome import is_run_error
from crashmatrix.plain_text import plain
from crashmatrix.rundir.unwritable import check_not_full, writing

FIRST_COLUMNS = ["cell_id", "repeat"]
ERROR_LENGTH, WHERE_LENGTH = 500, 300  # results.csv's error and where, at most


def one_line(text, limit: int) -> str:
    """A row's text column as results.csv keeps it: plain, on one line, at most `limit` characters."""
    return " ".join(plain(str(text)).split())[:limit]


RESULT_COLUMNS = ["outcome", "signal", "exit_code", "error", "duration_s", "host", "log_dir"]
# After the contract's first columns: what identifies the failure (crashmatrix.verdict.signature), where it died
# or hung, in a distributed cell the global rank whose failure it is (crashmatrix.verdict.ranks), and the node
# that ran it in a fleet (`--each-node`; empty otherwise).
DIAGNOSIS_COLUMNS = ["signature", "where", "rank", "node"]
# The speed columns (steps, steps_per_s, first_batch_s, first_batch_total_s): what
# runner/incell/loader_clock.py counted in the cell.
SPEED_COLUMNS = ["steps", "steps_per_s", "first_batch_s", "first_batch_total_s"]
# rank_spread: where a distributed cell's ranks differ by more than noise (rundir/rank_speed.py).
# The growth columns: MB a step that the process tree's RSS and torch's allocated CUDA memory grew by after
# the first steps (runner/incell/memory_sampler.py); result.json keeps the samples (metrics.memory).
GROWTH_COLUMNS = ["rss_growth_mb_per_step", "gpu_growth_mb_per_step"]
EXTRA_COLUMNS = SPEED_COLUMNS + [
    "final_loss",
    "peak_rss_mb",
    "peak_gpu_mb",
    "rank_spread",
    *GROWTH_COLUMNS,
    "gpu",
    "leftovers",
    "started_at",
]
NOT_VALUE_COLUMNS = FIRST_COLUMNS + RESULT_COLUMNS + DIAGNOSIS_COLUMNS + EXTRA_COLUMNS


@dataclass(frozen=True)
class RunResult:
    """How one run of one cell ended: its row of results.csv (`row`) and its result.json (`to_json`).

    `outcome` is an Outcome word; `log_dir` is relative to the run directory; `metrics` holds what
    the cell reported (steps, final_loss, ...) and the GPU set it had; `argv` is what was started, in `cwd`.
    """

    cell_id: str
    repeat: int
    values: dict
    outcome: str
    signal: str = ""
    exit_code: int | None = None
    error: str = ""
    duration_s: float = 0.0
    host: str = ""
    log_dir: str = ""
    signature: str = ""
    where: str = ""
    rank: int | None = None
    node: str = ""  # the Slurm node a fleet pinned this run to; part of its identity (crashmatrix.cell.RunKey)
    metrics: dict = field(default_factory=dict)
    leftovers: tuple = ()
    started_at: str = ""
    argv: tuple = ()
    cwd: str = ""  # the folder argv was started in
    # a timeout's: stderr.log's size as crashmatrix's kill began; what follows is the answer to the kill
    stderr_at_kill: int | None = None

    @property
    def key(self) -> RunKey:
        return (self.cell_id, self.repeat, self.node)

    def to_json(self) -> dict:
        fields = asdict(self)
        fields["leftovers"] = list(self.leftovers)
        fields["argv"] = list(self.argv)
        return fields

    @staticmethod
    def from_json(data: dict) -> RunResult:
        fields = dict(data)
        fields["leftovers"] = tuple(fields.get("leftovers") or ())
        fields["argv"] = tuple(fields.get("argv") or ())
        known = RunResult.__dataclass_fields__
        return RunResult(**{k: v for k, v in fields.items() if k in known})

    def row(self, value_columns: list[str]) -> dict:
        row = {"cell_id": self.cell_id, "repeat": self.repeat}
        for col in value_columns:
            row[col] = spell(self.values[col]) if col in self.values else ""
        row.update(
            outcome=self.outcome,
            signal=self.signal,
            exit_code="" if self.exit_code is None else self.exit_code,
            error=one_line(self.error, ERROR_LENGTH),
            duration_s=f"{self.duration_s:.3f}",
            host=self.host,
            log_dir=self.log_dir,
            signature=plain(self.signature),
            where=one_line(self.where, WHERE_LENGTH),
            rank="" if self.rank is None else self.rank,
            node=self.node,
        )
        for key in (*SPEED_COLUMNS, "final_loss", "peak_rss_mb", "peak_gpu_mb", "rank_spread", *GROWTH_COLUMNS, "gpu"):
            value = self.metrics.get(key, "")
            row[key] = f"{value:.6g}" if isinstance(value, float) else value
        row["leftovers"] = len(self.leftovers)
        row["started_at"] = self.started_at
        return row


def csv_columns(value_columns: list[str]) -> list[str]:
    return FIRST_COLUMNS + list(value_columns) + RESULT_COLUMNS + DIAGNOSIS_COLUMNS + EXTRA_COLUMNS


class RunDir:
    """A run directory on disk: `create` a new one or `reopen` one for --resume, then `record` each result.

    Writes are whole or absent (result.json by rename, a row of results.csv in one append), so a
    controller killed at any moment leaves a directory that --resume completes.
    """

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        self.csv_path = os.path.join(self.path, "results.csv")
        self.value_columns: list[str] = []
        self.columns: list[str] = []  # results.csv's header: an older run's header lacks signature and where
        self._synced = 0.0  # when results.csv last reached the disk (time.monotonic)

    # --- creating and reopening -------------------------------------------

    def create(self, matrix_yaml: dict, value_columns: list[str], *, beside_others: bool = False) -> None:
        """A new run directory. beside_others: the directory may hold other files (Hydra's sweep directory,
        with its multirun.yaml); none of ours may be there already."""
        import yaml

        if os.path.exists(self.csv_path):
            raise BadInput(f"{self.path}: already holds a run (results.csv); use --resume {self.path} or another --out")
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise BadInput(f"{self.path}: --out must be a directory, and this is a file")
        if os.path.isdir(self.path) and os.listdir(self.path) and not beside_others:
            # Never write over a directory of the user's (their summary.md, their matrix.yaml).
            raise BadInput(f"{self.path}: --out is a directory that is not empty; give a new or empty one")
        try:
            os.makedirs(os.path.join(self.path, "cells"), exist_ok=True)
            with open(os.path.join(self.path, "matrix.yaml"), "w", encoding="utf-8") as f:
                yaml.safe_dump(matrix_yaml, f, sort_keys=False)
            self.value_columns = list(value_columns)
            self.columns = csv_columns(self.value_columns)
            with open(self.csv_path, "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerow(self.columns)
        except OSError as e:
            raise BadInput(f"{self.path}: cannot create the run directory ({e.strerror})") from None

    def reopen(self, value_columns: list[str]) -> set[RunKey]:
        """For --resume: the runs already done (rows recovered from result.json first)."""
        if not os.path.exists(self.csv_path):
            raise BadInput(f"{self.path}: no results.csv to resume")
        # Everything is checked before anything is rewritten: a refused resume changes nothing.
        header, _rows = self._read_checked()
        existing = [c for c in header if c not in NOT_VALUE_COLUMNS]
        missing = [c for c in value_columns if c not in existing]
        if missing:
            raise BadInput(
                f"{self.csv_path}: the run has columns {existing}; the matrix now also has {missing}. "
                "Resume with the same matrix, or start a new run."
            )
        self._drop_partial_last_line()
        self._drop_error_rows()
        _header, rows = self._read_checked()
        node_at = header.index("node") if "node" in header else None
        done = {(row[0], int(row[1]), _node(row, node_at)) for row in rows}
        self.value_columns = existing
        self.columns = header
        for result in self._results_on_disk():
            if result.key not in done and not is_run_error(result.outcome):
                self.append(result)
                done.add(result.key)
        return done

    def _read_checked(self) -> tuple[list[str], list[list[str]]]:
        """Header and whole rows of results.csv (a half-written last line is left out)."""
        try:
            with open(self.csv_path, "rb") as f:
                data = f.read()
            text = data[: data.rfind(b"\n") + 1].decode("utf-8")
        except OSError as e:
            raise BadInput(f"{self.csv_path}: cannot read ({e.strerror})") from None
        except UnicodeDecodeError:
            raise BadInput(f"{self.csv_path}: not UTF-8 text; not a crashmatrix results.csv") from None
        rows = list(csv.reader(io.StringIO(text)))
        header = rows[0] if rows else []
        if header[:2] != FIRST_COLUMNS or "outcome" not in header:
            raise BadInput(f"{self.csv_path}: not a crashmatrix results.csv (header {header[:3]})")
        for n, row in enumerate(rows[1:], start=2):
            if len(row) < 2 or not row[1].isdigit():
                raise BadInput(f"{self.csv_path}: line {n}: no cell_id and repeat; fix or remove that line")
        return header, rows[1:]

    def _drop_error_rows(self) -> None:
        """`error` means crashmatrix could not run the cell (a launch failure, a lost job): resume runs it again."""
        with open(self.csv_path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        if not rows or "outcome" not in rows[0]:
            return
        col = rows[0].index("outcome")
        kept = [r for r in rows[1:] if len(r) > col and not is_run_error(r[col])]
        if len(kept) == len(rows) - 1:
            return
        node_at = rows[0].index("node") if "node" in rows[0] else None
        dropped = {(r[0], int(r[1]), _node(r, node_at)) for r in rows[1:] if len(r) > col and is_run_error(r[col])}
        for cell_id, repeat, node in dropped:
            stale = os.path.join(self.path, "cells", run_dirname(cell_id, repeat, node), "result.json")
            if os.path.exists(stale):
                os.remove(stale)
        buf = io.StringIO()
        csv.writer(buf).writerows([rows[0]] + kept)
        self.write_text("results.csv", buf.getvalue())

    def _drop_partial_last_line(self) -> None:
        with writing(self.path), open(self.csv_path, "rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)

    def _results_on_disk(self):
        cells = os.path.join(self.path, "cells")
        if not os.path.isdir(cells):
            return
        for name in sorted(os.listdir(cells)):
            path = os.path.join(cells, name, "result.json")
            if os.path.exists(path):
                try:
                    with open(path, encoding="utf-8") as f:
                        yield RunResult.from_json(json.load(f))
                except (OSError, ValueError, TypeError):
                    continue

    # --- per run ----------------------------------------------------------

    def make_cell_dir(self, run: CellRun) -> str:
        """A clean directory for this run (a leftover from an interrupted run is wiped)."""
        path = os.path.join(self.path, "cells", run.dirname)
        if os.path.exists(path):
            shutil.rmtree(path, ignore_errors=True)
        check_not_full(self.path)  # a cell started on a full disk would lose its logs: never start one
        with writing(self.path):
            os.makedirs(path)
        return path

    def relative_to_run(self, path: str) -> str:
        """`path` as results.csv's log_dir spells it: relative to the run directory."""
        return os.path.relpath(path, self.path)

    def record(self, result: RunResult) -> None:
        # A run that ended on a full disk may have lost its own log lines: not recorded, --resume reruns it.
        check_not_full(self.path)
        # Here results.csv is the record that must last; result.json is its copy beside the logs.
        self.write_result(result, durable=False)
        self.append(result)

    def write_result(self, result: RunResult, durable: bool = True) -> None:
        """Only result.json: what a job on another node writes; the controller appends the rows."""
        with writing(self.path):
            path = os.path.join(self.path, result.log_dir, "result.json")
            write_json_atomic(path, result.to_json(), durable=durable)

    def read_result(self, run: CellRun) -> RunResult | None:
        path = os.path.join(self.path, "cells", run.dirname, "result.json")
        try:
            with open(path, encoding="utf-8") as f:
                return RunResult.from_json(json.load(f))
        except (OSError, ValueError, TypeError):
            return None

    def append(self, result: RunResult) -> None:
        buf = io.StringIO()
        csv.DictWriter(buf, fieldnames=self.columns, extrasaction="ignore").writerow(result.row(self.value_columns))
        with writing(self.path):
            self._append_row(buf.getvalue().encode("utf-8"))

    def _append_row(self, data: bytes) -> None:
        # One write on an O_APPEND descriptor: a row is either whole or absent.
        fd = os.open(self.csv_path, os.O_WRONLY | os.O_APPEND)
        try:
            _write_whole(fd, data)
            # The row is in the page cache at once (a killed controller loses none); on the disk within
            # a second, so a machine crash loses at most a second's rows, which --resume runs again,
            # and a crashing cell does not pay a disk flush (several ms) each.
            if time.monotonic() - self._synced >= 1.0:
                os.fsync(fd)
                self._synced = time.monotonic()
        finally:
            os.close(fd)

    def write_text(self, name: str, text: str) -> None:
        # Not flushed to the disk: summary.md is rewritten at the end, results.csv's rows are its record.
        with writing(self.path):
            write_text_atomic(os.path.join(self.path, name), text, durable=False)

    def write_json(self, name: str, data) -> None:
        with writing(self.path):
            write_json_atomic(os.path.join(self.path, name), data)


def _node(row: list[str], at: int | None) -> str:
    """A results.csv row's node ("" outside a fleet, and in a run from before the column)."""
    return row[at] if at is not None and len(row) > at else ""


def _write_whole(fd: int, data: bytes) -> None:
    """All of `data` at the end of fd's file, or none of it: a disk that fills mid-row leaves no half row
    (the file is cut back to where the row began, which needs no space)."""
    start = os.fstat(fd).st_size
    done = 0
    try:
        while done < len(data):
            n = os.write(fd, data[done:])
            if n == 0:  # never for a regular file that has room; do not spin
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            done += n
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, start)
        raise


def read_rows(source: str) -> tuple[list[dict], list[str], str]:
    """(rows, value columns, csv path) of a run directory or a results.csv file."""
    path = os.path.join(source, "results.csv") if os.path.isdir(source) else source
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            header = reader.fieldnames or []
    except OSError as e:
        raise BadInput(f"{path}: cannot read results ({e.strerror})") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text; not a crashmatrix results.csv") from None
    except csv.Error as e:
        raise BadInput(f"{path}: not a results.csv ({e})") from None
    for needed in ("cell_id", "repeat", "outcome"):
        if needed not in header:
            raise BadInput(f"{path}: not a crashmatrix results.csv (no column {needed!r})")
    value_columns = [c for c in header if c not in NOT_VALUE_COLUMNS]
    return rows, value_columns, path


def _run_directory(source: str) -> str:
    return source if os.path.isdir(source) else os.path.dirname(os.path.abspath(source))


def read_matrix_yaml(source: str) -> dict:
    """The resolved matrix a run directory (or its results.csv) was made from; {} when there is none."""
    import yaml

    try:
        with open(os.path.join(_run_directory(source), "matrix.yaml"), encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, ValueError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def read_fingerprint(source: str) -> dict:
    try:
        with open(os.path.join(_run_directory(source), "env.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}
