"""A process pool whose worker is killed from outside, as the kernel's OOM killer or a cgroup limit ends the
largest process: concurrent.futures then says only BrokenProcessPool.

Run alone (Python 3.11): exit 1; the main's `future.result()` at line 35 (in its generator expression) raises
`concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the
future was running or pending.`, from concurrent/futures/_base.py's __get_result; the killed worker prints
nothing. The main does the killing here (line 33, by the pid the worker wrote), standing in for the kernel.
"""

import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

FLAG = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"pool-worker-{os.getpid()}.pid")


def tokenize_shard(i: int) -> int:
    if i == 3:  # the shard too large for the worker's memory limit: it waits to be killed
        with open(FLAG, "w") as f:
            f.write(str(os.getpid()))
        time.sleep(60)
    return i * 100


def main() -> None:
    with ProcessPoolExecutor(2, mp_context=get_context("fork")) as pool:
        futures = [pool.submit(tokenize_shard, i) for i in range(6)]
        while not os.path.exists(FLAG):  # the kernel's view: the worker that grew too large
            time.sleep(0.05)
        with open(FLAG) as f:
            os.kill(int(f.read()), signal.SIGKILL)
        os.remove(FLAG)
        print(sum(future.result() for future in futures))


if __name__ == "__main__":
    main()
