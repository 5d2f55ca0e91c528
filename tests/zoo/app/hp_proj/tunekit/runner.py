"""Ways to run a study's trials: a process pool, a thread pool, or one child process per trial."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial

from tunekit import trial


def in_process_pool(configs: list[dict], parallel: int) -> list[dict]:
    with mp.get_context("fork").Pool(parallel) as pool:
        return pool.map(trial.run_trial, configs)


def in_threads(configs: list[dict], parallel: int, fn=trial.run_trial) -> list[dict]:
    with ThreadPoolExecutor(parallel, thread_name_prefix="trial") as ex:
        futures = [ex.submit(fn, c) for c in configs]
        return [f.result() for f in futures]


def appending_results(configs: list[dict], parallel: int, path: str) -> None:
    with ProcessPoolExecutor(parallel, mp_context=mp.get_context("fork")) as ex:
        for number in ex.map(partial(trial.run_and_append, path=path), configs):
            print(f"trial {number} done", flush=True)


def storing_in_sqlite(configs: list[dict], parallel: int, db: str) -> None:
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE IF NOT EXISTS trials (number INTEGER, state TEXT, loss REAL)")
    con.commit()
    con.close()
    with ProcessPoolExecutor(parallel, mp_context=mp.get_context("fork")) as ex:
        for number in ex.map(partial(trial.run_and_store, db=db), configs):
            print(f"trial {number} stored", flush=True)


def limit_cpu(seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def child_trial(config: dict, workdir: str, cpu_seconds: int | None = None) -> dict:
    path = os.path.join(workdir, f"trial{config['number']}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    proc = subprocess.run(
        [sys.executable, "-m", "tunekit.trial_main", path],
        stdout=subprocess.PIPE,
        text=True,
        check=cpu_seconds is not None,
        preexec_fn=(lambda: limit_cpu(cpu_seconds)) if cpu_seconds else None,
    )
    return json.loads(proc.stdout)


def in_children(configs: list[dict], parallel: int, cpu_seconds: int | None = None) -> list[dict]:
    workdir = tempfile.mkdtemp(prefix="tunekit-")
    fn = partial(child_trial, workdir=workdir, cpu_seconds=cpu_seconds)
    return in_threads(configs, parallel, fn)


def in_pool_with_time_limit(configs: list[dict], parallel: int) -> list[dict]:
    pool = mp.get_context("fork").Pool(parallel)

    def on_timeout(signum, frame):
        raise TimeoutError(f"trial {os.environ.get('TUNEKIT_TRIAL')} ran out of time")

    signal.signal(signal.SIGALRM, on_timeout)
    try:
        return pool.map(trial.run_with_time_limit, configs)
    finally:
        pool.terminate()
