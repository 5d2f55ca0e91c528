"""A process the program started (multiprocessing, subprocess) dies by a signal, and the main then fails on
hearing of it: the child's death is the failure, the main's error its consequence (issue 52, item 3: as a
thread before the main, a worker before the loader that reports it).

The truth, from running tests/zoo/app's x_mp_child_segv alone (the thirteenth held-out set, HELDOUT13.md):
exit 1. The child, started by mp.Process, reads through ctypes far outside its buffer; faulthandler prints
`Fatal Python error: Segmentation fault` and the child's stack, decode_shard at :11 under multiprocessing's
Process._bootstrap; the parent joins it and raises `RuntimeError: shard decoder exited with code -11` at :20.
Before this rule the run said fail at the parent's raise, and diagnose of the log said the main crashed.
"""

import os
import re

import pytest
from conftest import ROOT, crashmatrix, rows_of

from crashmatrix.outcome import Outcome
from crashmatrix.resolve.diagnose import diagnose
from crashmatrix.resolve.log_text import read_logs
from crashmatrix.verdict.classify import classify

APP = os.path.join(ROOT, "tests", "zoo", "app", "main.py")

FORKED_CHILD = """\
Fatal Python error: Segmentation fault

Current thread 0x00007fcc1b449b80 (most recent call first):
  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "/app/shards.py", line 11 in decode_shard
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108 in run
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314 in _bootstrap
  File "/usr/lib/python3.11/multiprocessing/popen_fork.py", line 71 in _launch
  File "/usr/lib/python3.11/multiprocessing/process.py", line 121 in start
  File "/app/shards.py", line 17 in main
  File "/app/shards.py", line 21 in <module>
"""
SPAWNED_CHILD = """\
Fatal Python error: Bus error

Current thread 0x00007f00aa001740 (most recent call first):
  File "/app/shards.py", line 11 in decode_shard
  File "/usr/lib/python3.11/multiprocessing/process.py", line 108 in run
  File "/usr/lib/python3.11/multiprocessing/process.py", line 314 in _bootstrap
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 135 in _main
  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 122 in spawn_main
  File "<string>", line 1 in <module>
"""
MAIN_RAISES = """\
Traceback (most recent call last):
  File "/app/shards.py", line 21, in <module>
    main()
  File "/app/shards.py", line 20, in main
    raise RuntimeError(f"shard decoder exited with code {worker.exitcode}")
RuntimeError: shard decoder exited with code -11
"""


def test_a_forked_childs_segfault_before_the_mains_raise_is_the_verdict():
    verdict = classify(1, stderr=FORKED_CHILD + MAIN_RAISES)
    assert (verdict.outcome, verdict.signal, verdict.signature) == (Outcome.WORKER_CRASH, "SIGSEGV", "worker_signal")
    assert verdict.error == (
        "Fatal Python error: Segmentation fault in a child process the main started; the main then failed with "
        "RuntimeError: shard decoder exited with code -11"
    )


def test_a_spawned_childs_death_is_told_by_its_own_signal():
    verdict = classify(1, stderr=SPAWNED_CHILD + MAIN_RAISES)
    assert (verdict.outcome, verdict.signal) == (Outcome.WORKER_CRASH, "SIGBUS")


def test_the_mains_own_dump_and_a_childs_stop_are_not_a_childs_death():
    main_dump = FORKED_CHILD.split('  File "/usr/lib/python3.11/multiprocessing/process.py", line 108')[0]
    assert classify(-11, stderr=main_dump).outcome is Outcome.CRASH
    stopped = FORKED_CHILD.replace("Segmentation fault", "Terminated")  # the parent's stop of its child: no cause
    assert classify(1, stderr=stopped + MAIN_RAISES).outcome is Outcome.FAIL


@pytest.mark.slow  # real runs, alone and under inject
def test_alone_and_under_inject_the_row_is_the_childs_death_at_its_own_line(tmp_path):
    matrix = tmp_path / "m.yaml"
    for inject in ("false", "true"):
        matrix.write_text(
            f"name: child-{inject}\ncommand: [python, {APP}]\ninject: {inject}\naxes: {{mode: [x_mp_child_segv]}}\n"
        )
        ran = crashmatrix("run", matrix, "--out", tmp_path / inject, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
        (row,) = rows_of(tmp_path / inject)
        assert (row["outcome"], row["signal"], row["exit_code"]) == ("worker_crash", "SIGSEGV", "1"), row
        assert row["signature"] == "worker_signal in zoo/modes/x_mp_child_segv.py:decode_shard", row
        assert row["where"] == "zoo/modes/x_mp_child_segv.py:11 in decode_shard", row


CALLED_PROCESS = """\
Traceback (most recent call last):
  File "/app/prep.py", line 22, in main
    subprocess.run([sys.executable, "shard.py"], check=True)
  File "/usr/lib/python3.11/subprocess.py", line 571, in run
    raise CalledProcessError(retcode, process.args,
subprocess.CalledProcessError: Command '['/usr/bin/python3', 'shard.py']' died with <Signals.SIGKILL: 9>.
"""


def test_a_child_the_program_ran_and_that_died_by_a_signal_is_told_by_that_signal():
    # the fifteenth held-out set's z_subprocess_child_sigkill (HELDOUT15.md): Python's own words for it
    verdict = classify(1, stderr=CALLED_PROCESS)
    assert (verdict.outcome, verdict.signal, verdict.signature) == (Outcome.WORKER_CRASH, "SIGKILL", "worker_signal")


@pytest.mark.slow  # real runs, alone and under inject
def test_under_inject_a_subprocess_child_that_killed_itself_is_placed_at_its_own_kill(tmp_path):
    # the truth, alone: the child (the same file with --build-shard) sends itself SIGKILL at :17 in build_shard,
    # printing nothing; the parent's subprocess.run(check=True) at :22 raises CalledProcessError. Without inject
    # nothing records the child's call: the row says where the main heard of it.
    for inject in ("true", "false"):
        (tmp_path / "m.yaml").write_text(
            f"name: kill-{inject}\ncommand: [python, {APP}]\ninject: {inject}\n"
            "axes: {mode: [z_subprocess_child_sigkill]}\n"
        )
        ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / inject, cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
        (row,) = rows_of(tmp_path / inject)
        assert (row["outcome"], row["signal"]) == ("worker_crash", "SIGKILL"), row
        if inject == "true":
            assert row["where"] == "zoo/modes/z_subprocess_child_sigkill.py:17 in build_shard", row
            assert row["signature"] == "worker_signal in zoo/modes/z_subprocess_child_sigkill.py:build_shard", row
        else:
            assert row["where"] == "the main process heard of it at zoo/modes/z_subprocess_child_sigkill.py:22 in main"


# A Python child the program ran (subprocess.run(check=True)) that raised, and asyncio tasks whose exceptions
# nobody retrieved: each printed its own traceback before the main failed on what it did not do. Run alone
# (2026-11-30, Python 3.11.7): `python first.py kind=child` printed the child's `ValueError: could not convert
# string to float: 'NA'` at first.py:9 in prep, then the main's `subprocess.CalledProcessError: ... returned
# non-zero exit status 1.` at :28, exit 1; `kind=task` printed `Task exception was never retrieved` with each
# task's FileNotFoundError at :15 in upload (epoch0.pt, then epoch1.pt), then the main's own FileNotFoundError
# for epoch1.pt at :33, exit 1. `kind=process`: multiprocessing printed `Process grid-exporter:` and the child's
# `ValueError: unknown file extension: .webm (True)` at :25 in export, then the main's `RuntimeError: grid exporter
# exited with code 1` at :45, exit 1; `kind=kept`: a thread kept its `ValueError: invalid literal for int() with
# base 10: '12px'` (:30 in writer) and the main raised `RuntimeError: the writer thread failed` from it at :51,
# exit 1. In both the child's or the thread's exception came first, the main's is what it made of it (the
# twentieth held-out set's g_child_export_ext and g_thread_font_resource). `kind=quiet`: the program's own
# threading.excepthook prints `warning: thread rates stopped: could not convert string to float: 'NA'` (the
# thread's ValueError at :41 in parse_rates, no traceback), then the main's `rates.get(timeout=1)` at :68 raises
# `_queue.Empty`, exit 1 (the fifty-seventh held-out set's sg_thread_excepthook_quiet). Under inject the thread's
# recorded exception is the verdict; without it nothing saw more than the hook's line.
FIRST = """\
import asyncio, gc, multiprocessing, os, subprocess, sys, tempfile, threading

ROWS = ["12.5", "NA"]


def prep():
    total = 0.0
    for row in ROWS:
        total += float(row)
    print(total)


async def upload(folder, name):
    await asyncio.sleep(0.01)
    open(os.path.join(folder, "remote", name), "wb").write(b"w")


async def train(folder):
    for epoch in range(2):
        asyncio.create_task(upload(folder, f"epoch{epoch}.pt"))  # fire and forget: nobody awaits it
        await asyncio.sleep(0.05)


def export(folder):
    raise ValueError(f"unknown file extension: .webm ({len(folder) > 0})")


def writer(kept):
    try:
        int("12px")
    except ValueError as e:
        kept.append(e)


def quiet_hook(args):
    print(f"warning: thread {args.thread.name} stopped: {args.exc_value}", file=sys.stderr, flush=True)


def parse_rates(rates):
    for row in ROWS:
        rates.put(float(row))


def main():
    kind = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a).get("kind")
    if kind is None:
        return prep()
    if kind == "child":
        subprocess.run([sys.executable, os.path.abspath(__file__)], check=True)
    if kind == "process":
        exporter = multiprocessing.Process(target=export, args=(tempfile.mkdtemp(),), name="grid-exporter")
        exporter.start()
        exporter.join()
        raise RuntimeError(f"grid exporter exited with code {exporter.exitcode}")
    if kind == "kept":
        kept = []
        thread = threading.Thread(target=writer, args=(kept,))
        thread.start()
        thread.join()
        raise RuntimeError("the writer thread failed") from kept[0]
    if kind == "quiet":
        import queue

        threading.excepthook = quiet_hook
        rates = queue.Queue()
        threading.Thread(target=parse_rates, args=(rates,), name="rates").start()
        for _ in ROWS:
            print(rates.get(timeout=1))
    folder = tempfile.mkdtemp()
    asyncio.run(train(folder))
    gc.collect()
    open(os.path.join(folder, "remote", "epoch1.pt"), "rb").read()


if __name__ == "__main__":
    main()
"""


@pytest.mark.slow  # real runs of a program without torch, alone and under inject
def test_what_a_child_a_task_a_process_or_a_kept_thread_raised_before_the_main_is_the_verdict(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "first.py").write_text(FIRST)
    rows = []
    for inject in ("true", "false"):
        (tmp_path / f"{inject}.yaml").write_text(
            f"name: first\ncommand: [python, {tmp_path / 'first.py'}]\ninject: {inject}\naxes:\n"
            "  kind: [child, task, process, kept, quiet]\n"
        )
        out = tmp_path / f"run-{inject}"
        done = crashmatrix("run", tmp_path / f"{inject}.yaml", "--out", out, "--jobs", "2", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        rows += [dict(row, inject=inject) for row in rows_of(out)]
    assert len(rows) == 10
    for row in rows:
        assert row["outcome"] == "fail", row
        if row["kind"] == "quiet" and row["inject"] == "true":
            assert row["error"] == (
                "ValueError: could not convert string to float: 'NA'; in thread rates, first: the main then failed "
                "with _queue.Empty"
            ), row["error"]
            assert row["where"] == "first.py:41 in parse_rates", row
            cell = tmp_path / "run-true" / row["log_dir"]
            assert (cell / "thread-uncaught.txt").is_file()
            # diagnose of the cell reads the kept record with its stderr.log, as the run read it
            said = diagnose(read_logs([str(cell)])).row
            assert (said["error"], said["where"]) == (row["error"], row["where"]), said
        elif row["kind"] == "quiet":  # nothing of the program's saw more than the hook's line
            assert row["error"] == "_queue.Empty", row["error"]
        if row["kind"] == "quiet":
            continue
        if row["kind"] == "process":
            assert row["error"] == (
                "ValueError: unknown file extension: .webm (True); in process grid-exporter, first: the main then "
                "failed with RuntimeError: grid exporter exited with code 1"
            ), row["error"]
            assert (row["where"], row["signature"]) == (
                "first.py:25 in export",
                "ValueError: unknown file extension: .webm (True) in first.py:export",
            ), row
        elif row["kind"] == "kept":
            assert row["error"] == (
                "ValueError: invalid literal for int() with base 10: '12px'; raised first, outside the main's stack: "
                "the main re-raised it as RuntimeError: the writer thread failed"
            ), row["error"]
            assert row["where"] == "first.py:30 in writer", row
        elif row["kind"] == "child":
            assert row["error"].startswith(
                "ValueError: could not convert string to float: 'NA'; in a child process the main started, first: "
                "the main then failed with subprocess.CalledProcessError: "
            ), row["error"]
            assert (row["where"], row["signature"]) == (
                "first.py:9 in prep",
                "ValueError: could not convert string to float: 'NA' in first.py:prep",
            ), row
        else:
            assert re.fullmatch(
                r"FileNotFoundError: \[Errno 2\] No such file or directory: '\S+/remote/epoch0\.pt'; in asyncio task "
                r"Task-2 \(upload\), first: the main then failed with FileNotFoundError: .*epoch1\.pt'",
                row["error"],
            ), row["error"]
            assert row["where"] == "first.py:15 in upload", row


# A cause raised in the failing exception's own stack (caught where the main's traceback passes) is the program
# wrapping its own error: the wrapper is the failure, as Python tells it last.
SAME_STACK = """\
Traceback (most recent call last):
  File "/app/conf.py", line 8, in load
    return float(text)
ValueError: could not convert string to float: 'fast'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/conf.py", line 14, in <module>
    load("fast")
  File "/app/conf.py", line 10, in load
    raise ConfigError("lr must be a number") from e
conf.ConfigError: lr must be a number
"""


def test_a_cause_caught_in_the_failing_stack_leaves_the_wrapper_the_verdict():
    verdict = classify(1, stderr=SAME_STACK)
    assert (verdict.outcome, verdict.error) == (Outcome.FAIL, "conf.ConfigError: lr must be a number")


# The fifty-sixth held-out set's sm_batch_sampler_stopiteration (HELDOUT56.md), run alone 2026-11-30: exit 1; a
# BatchSampler's generator __iter__ calls next() on a source that ran out (:20); Python turns the StopIteration
# into RuntimeError at the generator's boundary, raised out of torch's _next_index under the main's loop (:26).
GENERATOR_STOPPED = """\
Traceback (most recent call last):
  File "/app/zoo/modes/batches.py", line 20, in __iter__
    yield [next(large) for _ in range(6)] + [next(small), next(small)]
                                             ^^^^^^^^^^^
StopIteration

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/main.py", line 21, in <module>
    main()
  File "/app/zoo/modes/batches.py", line 26, in main
    for step, (x,) in enumerate(loader):
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 715, in _next_index
    return next(self._sampler_iter)  # may raise StopIteration
           ^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: generator raised StopIteration
"""


def test_a_generators_stopiteration_that_python_turned_into_runtimeerror_is_that_error():
    verdict = classify(1, stderr=GENERATOR_STOPPED)
    assert (verdict.outcome, verdict.error) == (Outcome.FAIL, "RuntimeError: generator raised StopIteration")
    assert verdict.signature.startswith("RuntimeError: generator raised StopIteration"), verdict


# A review's program, run alone 2026-11-30: exit 1; an IterableDataset's generator __iter__ draws next() from a
# range of 3 in a DataLoader worker (:7); the worker's RuntimeError is re-raised by the main's loop (:9).
WORKER_GENERATOR_STOPPED = """\
Traceback (most recent call last):
  File "/app/stream.py", line 9, in <module>
    for b in DataLoader(Stream(), num_workers=1, batch_size=2):
  File "/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1567, in _process_data
    data.reraise()
  File "/venv/lib/python3.11/site-packages/torch/_utils.py", line 794, in reraise
    raise exception
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/app/stream.py", line 7, in __iter__
    yield torch.tensor([next(src)])
                        ^^^^^^^^^
StopIteration

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/torch/utils/data/_utils/worker.py", line 374, in _worker_loop
    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]
  File "/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 35, in fetch
    data.append(next(self.dataset_iter))
RuntimeError: generator raised StopIteration
"""


@pytest.mark.parametrize(
    "text,place",
    [(GENERATOR_STOPPED, "batches.py:20 in __iter__"), (WORKER_GENERATOR_STOPPED, "stream.py:7 in __iter__")],
)
def test_pep_479s_runtimeerror_is_placed_at_the_generators_line_and_its_fix_is_the_programs(text, place):
    from crashmatrix.resolve.issue import whose_fix
    from crashmatrix.verdict.exception_place import exception_place
    from crashmatrix.verdict.remedies import remedy

    verdict = classify(1, stderr=text)
    where = exception_place(text, error=verdict.error)
    assert where.endswith(place), where  # not torch's next() of it, where Python raised the RuntimeError
    assert "since Python 3.7 (PEP 479)" in remedy(f"{verdict.signature} in x.py:__iter__")
    whose, _culprit = whose_fix(verdict, text, where, verdict.error, {})
    assert "whose fix is the program's" in whose and "torch refused" not in whose, whose


def test_a_programs_error_raised_from_pep_479s_runtimeerror_is_that_error():
    # a review's program: it catches the RuntimeError of its generator and raises its own error from it, in one
    # stack; the StopIteration at the chain's start is no cause raised elsewhere
    caught = GENERATOR_STOPPED.replace(
        "RuntimeError: generator raised StopIteration\n",
        "RuntimeError: generator raised StopIteration\n\nThe above exception was the direct cause of the following "
        'exception:\n\nTraceback (most recent call last):\n  File "/app/main.py", line 21, in <module>\n    main()\n'
        '  File "/app/zoo/modes/batches.py", line 29, in main\n    raise DataError("the batches ran out") from e\n'
        "batches.DataError: the batches ran out\n",
    )
    verdict = classify(1, stderr=caught)
    assert (verdict.outcome, verdict.error) == (Outcome.FAIL, "batches.DataError: the batches ran out")


# The thirty-third held-out set's trials (HELDOUT33.md), run alone 2026-11-30: a child run as a module (`python -m
# zoo.modes.hp_child_trial_cwd params.json`, check=True) printed its FileNotFoundError at :18 in train, then the
# main's CalledProcessError at :44; children of another program (`python -m tunekit.trial_main`, stdout piped)
# printed their TypeError at tunekit/trial.py:26 in build, then the main failed to parse their empty output.
MODULE_CHILD = """\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/app/zoo/modes/trial.py", line 50, in <module>
    print(json.dumps({"loss": train(json.load(f))}))
  File "/app/zoo/modes/trial.py", line 18, in train
    x, y = torch.load(DATA)
FileNotFoundError: [Errno 2] No such file or directory: 'data/hp_train.pt'
"""
MAIN_ON_ITS_STATUS = """\
Traceback (most recent call last):
  File "/app/main.py", line 21, in <module>
    main()
  File "/app/zoo/modes/trial.py", line 44, in main
    out = subprocess.run(cmd, cwd=trial_dir, stdout=subprocess.PIPE, text=True, check=True)
subprocess.CalledProcessError: Command '['/venv/bin/python', '-m', 'zoo.modes.trial', 'params.json']' returned \
non-zero exit status 1.
"""
MAIN_ON_ITS_OUTPUT = """\
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "<frozen runpy>", line 88, in _run_code
  File "/app/tunekit/search.py", line 40, in <module>
    main()
  File "/app/tunekit/runner.py", line 63, in child_trial
    return json.loads(out)
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def test_a_child_run_as_a_module_that_failed_first_is_the_verdict():
    verdict = classify(1, stderr=MODULE_CHILD + MAIN_ON_ITS_STATUS)
    assert verdict.error.startswith("FileNotFoundError: [Errno 2] No such file or directory: 'data/hp_train.pt'; in a")
    # a child of another program than the main's, whatever the main then failed with
    verdict = classify(1, stderr=MODULE_CHILD + MAIN_ON_ITS_OUTPUT)
    assert verdict.error.startswith("FileNotFoundError: ") and "the main then failed with json.decoder" in verdict.error


def test_a_traceback_of_the_mains_own_program_is_no_childs():
    # the program printed a traceback of its own entry, then failed again: one program, its last failure told
    own = MAIN_ON_ITS_OUTPUT.replace("JSONDecodeError: Expecting value", "JSONDecodeError: Extra data")
    verdict = classify(1, stderr=own + MAIN_ON_ITS_OUTPUT)
    assert verdict.error == "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"


# From a review of the rule (a helper who did not write it): a traceback a program printed of an exception it
# caught, at a module's top level (an optional import, traceback.print_exc), then the main's own failure. One
# process; the first traceback is no child's, though it starts in another file's <module>.
OPTIONAL_IMPORT = """\
Traceback (most recent call last):
  File "/app/utils/optional.py", line 4, in <module>
    import apex
ModuleNotFoundError: No module named 'apex'
Traceback (most recent call last):
  File "/app/train.py", line 33, in <module>
    main()
  File "/app/train.py", line 30, in main
    out = model(x)
RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x10 and 20x5)
"""


def test_a_caught_traceback_printed_at_a_modules_top_level_is_no_childs():
    verdict = classify(1, stderr=OPTIONAL_IMPORT)
    assert verdict.error == "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x10 and 20x5)"


def test_a_module_child_is_known_through_the_runpy_of_python_3_10_too():
    older = MODULE_CHILD.replace('"<frozen runpy>", line 198', '"/usr/lib/python3.10/runpy.py", line 196').replace(
        '"<frozen runpy>", line 88', '"/usr/lib/python3.10/runpy.py", line 86'
    )
    assert classify(1, stderr=older + MAIN_ON_ITS_STATUS).error.startswith("FileNotFoundError: ")


# A thread's record as the in-cell code keeps it (incell/uncaught.py), and the main's failure after it: the program's
# threading.excepthook printed nothing at all, or the thread died only as the main was ending.
THREAD_RECORD = """\
Exception in thread rates:
Traceback (most recent call last):
  File "/app/first.py", line 41, in parse_rates
    rates.put(float(row))
ValueError: could not convert string to float: 'NA'
"""
MAIN_EMPTY = """\
Traceback (most recent call last):
  File "/app/first.py", line 68, in main
    print(rates.get(timeout=1))
  File "/usr/lib/python3.11/queue.py", line 179, in get
    raise Empty
_queue.Empty
"""


def test_a_silent_hooks_thread_death_comes_before_the_mains_failure_unless_it_came_after():
    from crashmatrix.verdict.uncaught import thread_told

    told = thread_told("12.5\n" + MAIN_EMPTY, THREAD_RECORD)
    assert told.index("Exception in thread rates:") < told.index("_queue.Empty")
    assert classify(1, stderr=told).error.startswith("ValueError: could not convert string to float: 'NA'; in thread")
    # a thread that died at the main's shutdown, after its failure (its record the later one): not its cause
    assert thread_told("12.5\n" + MAIN_EMPTY, THREAD_RECORD, after_main=True) == "12.5\n" + MAIN_EMPTY
    # Python's own hook printed it (the program's hook called it): read as printed, nothing added
    printed = THREAD_RECORD + MAIN_EMPTY
    assert thread_told(printed, THREAD_RECORD) == printed


# The sixty-first held-out set's io_ckpt_enospc (HELDOUT61.md), run alone 2026-11-30: exit 1; torch.save onto a
# full 1 MiB tmpfs raises `OSError: [Errno 28] No space left on device` in its zip writer, and as its `with` block
# closes, the writer's own `unexpected pos` error, raised while handling it, is what Python prints last.
SAVE_ONTO_FULL_DISK = """\
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/torch/serialization.py", line 1003, in save
    _save(
  File "/venv/lib/python3.11/site-packages/torch/serialization.py", line 1312, in _save
    zip_file.write_record(name, storage, num_bytes)
OSError: [Errno 28] No space left on device

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/train.py", line 33, in io_ckpt_enospc
    ckpt.save({"model": m.state_dict()}, f"{folder}/step2.pt")
  File "/app/iokit/ckpt.py", line 11, in save
    torch.save(state, f)
  File "/venv/lib/python3.11/site-packages/torch/serialization.py", line 1002, in save
    with _open_zipfile_writer(f) as opened_zipfile:
  File "/venv/lib/python3.11/site-packages/torch/serialization.py", line 854, in __exit__
    self.file_like.write_end_of_file()
RuntimeError: [enforce fail at inline_container.cc:672] . unexpected pos 35968 vs 35920
"""


def test_an_os_refusal_a_librarys_cleanup_masked_is_the_failure_at_the_programs_call():
    from crashmatrix.verdict.exception_place import exception_place
    from crashmatrix.verdict.remedies import remedy

    verdict = classify(1, stderr=SAVE_ONTO_FULL_DISK)
    assert verdict.error.startswith("OSError: [Errno 28] No space left on device; then, in the library's cleanup")
    assert verdict.signature == "OSError: [Errno N] No space left on device", verdict
    where = exception_place(SAVE_ONTO_FULL_DISK, error=verdict.error)
    assert where == "torch/serialization.py:1312 in _save; iokit/ckpt.py:11 in save", where
    assert remedy(verdict.signature).startswith("the filesystem the program wrote to is full")
    # a library's own translation while handling (not in a cleanup, not an errno) stays what Python printed last
    translated = SAVE_ONTO_FULL_DISK.replace("in __exit__", "in _validate").replace(
        "OSError: [Errno 28] No space left on device", "pandas.errors.InvalidComparison: 2024-03-01"
    )
    assert classify(1, stderr=translated).error.startswith("RuntimeError: [enforce fail")


WATCHDOG_CHILD = """\
import multiprocessing as mp
import os
import signal
import time


def watchdog():
    print("[ps] watchdog: no heartbeat; killing the server", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)


def serve():
    time.sleep(0.2)
    watchdog()


def main():
    ps = mp.get_context("spawn").Process(target=serve, name="ps")
    ps.start()
    ps.join()
    if ps.exitcode != 0:
        raise RuntimeError(f"parameter server died (exit code {ps.exitcode})")


if __name__ == "__main__":
    main()
"""


@pytest.mark.slow  # real runs of a program without torch, under inject
def test_under_inject_a_child_that_killed_itself_before_the_mains_raise_is_the_verdict(tmp_path):
    # the eighty-sixth held-out set's rp_child_watchdog_sigkill, made small (run alone, 2026-12-01: `[ps] watchdog:
    # ...`, then the main's `RuntimeError: parameter server died (exit code -9)` at :22, exit 1; the child sent
    # itself SIGKILL at :9 in watchdog and printed no stack). The row said fail at the main's raise.
    (tmp_path / "ps.py").write_text(WATCHDOG_CHILD)
    (tmp_path / "m.yaml").write_text(
        "name: ps\ncommand: [python, ps.py]\ninject: true\npass_params: none\naxes: {x: [1]}\n"
    )
    ran = crashmatrix("run", tmp_path / "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    (row,) = rows_of(tmp_path / "run")
    assert (row["outcome"], row["signal"]) == ("worker_crash", "SIGKILL"), row
    assert row["where"] == "ps.py:9 in watchdog", row
    assert row["signature"] == "worker_signal in ps.py:watchdog", row
    assert row["error"].endswith("; the main then failed with RuntimeError: parameter server died (exit code -9)")
