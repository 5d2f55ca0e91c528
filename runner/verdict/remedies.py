"""What fixes a failure of a known class, where the class itself says it: one sentence per signature.

explain and resolve add it to a failure of that signature. Only classes whose fix does not depend on the
configuration belong here: a failure that follows a setting is answered by resolve's configuration.
"""

from __future__ import annotations

import re

from crashmatrix.verdict.ranks import COLLECTIVE_TIMEOUT, RANK_ENDED_EARLY
from crashmatrix.verdict.signature import (
    BARRIER_UNMATCHED,
    HANG,
    HYDRA_INSTANTIATE_FAILED,
    HYDRA_OVERRIDE_REFUSED,
    UNPICKLER_SAYS,
    WEIGHTS_ONLY_HEAD,
)

# signature -> what fixes it, as a user would act on it
REMEDIES = {
    # A container's /dev/shm too small for what the loader's workers hand over (Docker's default is 64 MB): the
    # machine's setting, which torch's check only reports. Not only a DataLoader's: the hundredth held-out set's
    # producer process filled it through a torch.multiprocessing queue.
    "shm_full": (
        "tensors passed between processes (a DataLoader's workers' batches, a torch.multiprocessing queue's items) "
        "are handed over in shared memory (/dev/shm), and it is full: give the "
        "container a larger one (`docker run --shm-size=8g`; on Kubernetes an emptyDir with `medium: Memory` "
        "mounted at /dev/shm), or ask less of it (fewer workers, a smaller prefetch_factor or batch)"
    ),
    # DataLoader(timeout=N): the program's own limit on a worker's batch, which torch only enforces.
    "loader_timeout": (
        "a DataLoader worker took longer for one batch than the loader's `timeout` the program set: raise it, or "
        "leave it at 0 (no limit), or find what that worker waits on (slow storage, a heavy transform, a lock: "
        "the cell's stacks.txt at a timeout)"
    ),
    BARRIER_UNMATCHED: (
        "every rank must call the same collectives: this barrier is called by one rank alone (inside a rank's "
        "own branch, `if rank == 0: save()`, or after the others have left their loop and ended); call it on "
        "every rank, outside the branch, or not at all"
    ),
    # multiprocessing's own words for a process started by spawn or forkserver while the main script's top level
    # was still being imported again in it (a review's DataLoader iterated with no `__main__` guard).
    "missing_main_guard": (
        "a process started by spawn (or forkserver) imports the main script again, and the script's top-level code "
        "started processes (a DataLoader's workers, a Pool, a Process) as it was being imported in the child: put "
        'the script\'s work under `if __name__ == "__main__":`, or start with fork where the platform allows'
    ),
    RANK_ENDED_EARLY: (
        "every rank the same number of batches: a DistributedSampler (it pads every rank to the same count; "
        "DistributedSampler(dataset, drop_last=True) drops the tail instead) rather than a shard of your own, "
        "no rank-dependent break or return; or, for inputs that must stay uneven, the training loop inside "
        "`with torch.distributed.algorithms.Join([model]):`. A rank that left on its own (a signal handler's "
        "`sys.exit(0)`, a stop only it saw) must tell the others: agree on the stop (an all_reduce of a flag "
        "each step) or exit non-zero so the launcher stops the job"
    ),
}


# A collective timeout whose peers' places were found (verdict/peers.py): its signature ends with them, masked
# (verdict/straggler.py's short form). A rank outside any collective held the others up: at a place of its
# own (`rank N train.py:N in load`), waiting on something else (`rank N waits in DataLoader ...`), or where
# no stack told; else every rank was in one (`rank N in all_reduce at train.py:N in main`).
_PEERS_TOLD = re.compile(r": rank N .+$")
_OUTSIDE = re.compile(r"^rank N (?:\S+:N in |waits in |an unknown place)")

STRAGGLER = (
    "a collective timeout is a hang that torch's timeout ended: the rank outside any collective (its place in "
    "`where`) did not reach the others in time. Run that work on every rank in step, or before training starts "
    "(one rank downloading or preprocessing: the others then wait in a `dist.barrier()` whose process group's "
    "timeout allows for it); raise the timeout only where that wait is expected"
)
DESYNC = (
    "every rank must call the same collectives in the same order: here they wait in different ones, or in one "
    "reached from different lines (`where`). A collective inside a rank-dependent branch (`if rank == 0:`), or "
    "a rank that skips a step, pairs one rank's collective with another's; move the collective out of the branch"
)


# cuDNN that could not make its handle (verdict/sync_rerun.py signs it by that call): on an H200, a GPU whose
# memory another process held, while torch's own cache still had room.
CUDNN_SETUP = (
    "leave the GPU room for cuDNN: it could not make its handle (cudnnCreate), which it allocates outside torch's "
    "allocator. End or wait for the processes that hold the GPU's memory (`nvidia-smi "
    "--query-compute-apps=pid,used_memory --format=csv` lists them), give this job a GPU of its own "
    "(CUDA_VISIBLE_DEVICES), or keep torch's own cache from taking it all (a smaller batch)"
)


# torch.load's weights-only refusal (verdict/classify.py signs it by what it refused): the default since torch 2.6.
WEIGHTS_ONLY = (
    "torch.load loads with weights_only=True since torch 2.6: tensors and plain Python values only, and this file "
    "holds something else (the global the error names). For a file you trust, allow that global "
    "(`torch.serialization.add_safe_globals([...])` before loading) or load it with `torch.load(path, "
    "weights_only=False)`; save plain values from now on (a state_dict, `float(x)` rather than a numpy scalar, "
    "`vars(args)` rather than an argparse.Namespace)"
)


# torch.compile's inductor compiles its CPU kernels with a C++ compiler: none found (a slim container, a CXX that
# names none). Recorded on CPU with CXX pointing nowhere (tests/data/inductor).
NO_CXX_COMPILER = (
    "torch.compile's default backend (inductor) builds C++ kernels for the CPU and found no working compiler: "
    "install one where the program runs (Debian/Ubuntu: `apt-get install g++`), or point CXX at it; meanwhile "
    '`torch.compile(model, backend="aot_eager")` runs the same graphs without compiling them'
)


# omegaconf's `???`: a value the app's config leaves to whoever starts it, which nothing gave. Hydra prints the
# program's frame that read it, so the stack shows only the program's code, and the program is not what is
# wrong (recorded: tests/data/hydra-missing, the app run alone). The key is the message's, unmasked.
_MISSING_CONFIG_VALUE = re.compile(r"MissingMandatoryValue: Missing mandatory value: (\S+)")


def _missing_config_value(key: str) -> str:
    return (
        f"the app's config leaves `{key}` to be given (`???`) and nothing gave it: give it a value where the "
        f"program is started, `{key}=VALUE` on its command line, or in the matrix `params: {{{key}: VALUE}}` "
        "(or an axis of its values); a value in the app's config gives it to every run"
    )


# A library asked to read a file that is not there (Lightning's `trainer.fit(ckpt_path=...)`, torch.load, a
# dataset's folder) reports it in its own code: the path is the program's or its configuration's to fix, not the
# library's, unless the missing file is the library's own (a path below site-packages: a broken install).
# Recorded: tests/data/usage/resume_missing, Lightning resuming from a checkpoint that was never written.
FILE_MISSING = (
    "a file the program asked for is not there (the path the error names; a relative one is taken from the "
    "program's working folder: the one crashmatrix ran from, or a Hydra app's output folder where it changes into "
    "it): write it before this step runs (an earlier stage's output, a download) or give the path it is at; where "
    "the file was being made (a temporary folder, a log, a checkpoint), the folder it goes in is what is missing: "
    "create it first (`os.makedirs(path, exist_ok=True)`), or fix the setting that names it (TMPDIR, an output "
    "directory); the library that looked for it only reported it"
)

# wandb's online mode with no credentials where the cell runs (recorded: tests/data/usage/wandb_online). The
# knob `wandb` is WANDB_MODE, which a mode the program passes itself overrides (checked: `wandb.init(mode=
# "online")` fails the same under WANDB_MODE=offline).
# glibc's heap checks aborting (signature.py's glibc_heap_check): a pointer malloc never returned, or a heap broken
# earlier.
HEAP_CORRUPTED = (
    "glibc's heap check aborted the process as it freed or allocated memory. `invalid pointer` is a pointer malloc "
    "never returned handed to free or realloc (an address inside a block, a numpy or tensor view's data, memory "
    "another allocator owns); the other words (`invalid next size`, `double free or corruption`) say the heap was "
    "broken earlier, by a write past a buffer or a block freed twice. Either way, most often native code the "
    "program calls with a pointer or size it computed (ctypes, a C extension of its own). The place is where it was "
    "found: for a broken heap, run it under `MALLOC_CHECK_=3`, valgrind or AddressSanitizer to stop at the bad write"
)
# glibc's stack protector or fortified copy aborting (signature.py's overflow_detected): the write just made.
OVERFLOW_DETECTED = (
    "glibc caught a write past a buffer and aborted: a function's stack buffer overrun as it returned (the stack "
    "protector), or a copy about to run past its destination (a fortified strcpy or memcpy). It is the native "
    "code the program called last at this line (ctypes, a C extension of its own): check the sizes it copies "
    "into fixed buffers (strcpy into char[32]), or build it with -fsanitize=address to stop at the write"
)
# An option parser's refusal of its command line (argparse's `prog: error: ...` after its usage, jsonargparse's
# and LightningCLI's `error: ...`): exit status 2, before the program ran anything of its own. Told by their own
# words, not by `error:` alone, which a program's own message may begin with too.
_OPTION_PARSER_SAYS = (
    r"^(?:\S.*?: )?error: (?:unrecognized arguments:|the following arguments are required:|argument \S+:"
    r"|Subcommand '[^']*' does not accept|Parser key |Configuration check failed|No action for |invalid choice:)"
    r"|^Error: (?:Got unexpected extra arguments? |No such option:|Missing option |Invalid value for )"  # click's
)
USAGE_REFUSED = (
    "the program's option parser refused its command line (an option it does not take, or a value it cannot "
    "read) before anything ran: check the arguments against its `--help`; where a matrix passed them, a program "
    "that parses its own options takes them as `--key=value` (`pass_params: options`), a Hydra app as "
    "`key=value` (`pass_params: overrides`, the default)"
)
# The OS refused a thread (pthread_create's EAGAIN): Python says only this, whichever limit it was. A cap on the
# address space an 8 MiB stack no longer fits under is a memory limit (the fiftieth held-out set's
# rx_prefetch_thread_as: RLIMIT_AS 512 MiB, below what torch already maps); the threads a user may run are another.
THREAD_REFUSED = (
    "the operating system refused the new thread, and Python's words do not say which limit: a cap on the "
    "address space its stack no longer fits under (`ulimit -v`, `resource.setrlimit(RLIMIT_AS)`, a scheduler's "
    "virtual-memory limit: a memory limit, however the message reads), the processes and threads one user may "
    "run (`ulimit -u`, RLIMIT_NPROC, a container's pids limit), or the system's; `cat /proc/PID/limits` shows the "
    "process's. Raise the limit, or start fewer threads (DataLoader workers, a thread pool's size)"
)
# GNU OpenMP's own words as the threads of its pool are refused (libgomp's `Thread creation failed`): the same
# limits, met by the threads it starts for torch's and numpy's ops, one a core unless told (the hundredth held-out
# set's omp_threads_as: 16 threads under an address-space cap; the advice named neither the count nor the cap)
OPENMP_THREADS_REFUSED = (
    "GNU OpenMP could not start the threads of its pool (one a core unless OMP_NUM_THREADS or torch.set_num_threads "
    "says otherwise, in every process: each DataLoader worker and rank starts its own): a cap on the address space "
    "their stacks no longer fit under (`ulimit -v`, RLIMIT_AS), on the threads one user may run (`ulimit -u`, "
    "RLIMIT_NPROC, a container's pids limit), or the system's. Ask for fewer (OMP_NUM_THREADS=1 where many processes "
    "share the cores), or raise the limit"
)
# A filesystem the program wrote to ran out of space or of the user's quota (ENOSPC, EDQUOT): a checkpoint, a cache,
# a log. Not /dev/shm's size (shm_full, its own class): the machine's or the job's storage to free or to change. A
# library that was writing (torch.save's zip writer) reports it in its own frames, and its cleanup may fail after
# (classify's masked cleanup: the sixty-first held-out set's io_ckpt_enospc).
DISK_FULL = (
    "the filesystem the program wrote to is full (or the user's quota on it is): `df -h PATH` and `du` there show "
    "what holds it. Free space or write elsewhere (a checkpoint folder on a larger disk, fewer checkpoints kept, a "
    "cache or a temporary folder, TMPDIR, moved off a small tmpfs); the library that was writing only reported it"
)
# PEP 479 (Python 3.7 on): a StopIteration that leaves a generator, from a next() inside it on an iterator that ran
# out, is turned into this RuntimeError where the generator was resumed (a DataLoader's sampler or IterableDataset:
# in torch's next() of it). The generator's line is the program's; torch only asked for the next item.
GENERATOR_STOPPED_FIX = (
    "a generator of the program's called next() on an iterator that ran out (the line `where` names): since "
    "Python 3.7 (PEP 479) that StopIteration no longer ends the generator quietly but becomes this RuntimeError "
    "where the generator was resumed. End the generator on purpose (`return` when the source is done, `for x in "
    "source:`, or `next(source, None)` and a check), or size what it draws from to what it yields"
)
WANDB_NOT_LOGGED_IN = (
    "wandb's online mode needs an API key where the program runs: `wandb login` there (or the key in its "
    "environment as WANDB_API_KEY); or no upload while the crash is hunted: the matrix's `wandb` knob at "
    "`offline` (WANDB_MODE), where the program leaves the mode to it (no `mode=` of its own in wandb.init)"
)


# A worker process that ended itself with a status, no exception (sys.exit or os._exit in a Dataset's code or in
# a library it calls): the DataLoader can only say it exited. Recorded: tests/apps/worker_exit, run alone.
WORKER_ENDED_ITSELF = (
    "a child process (a DataLoader worker, a Process or a pool's worker) ended itself with a non-zero exit status "
    "instead of raising (`sys.exit`/`os._exit` in its code or in a library it calls; under inject `where` is that "
    "line), and the main process failed on its absence: make it raise an exception instead (a DataLoader re-raises "
    "a worker's in the main process with its traceback; a pool sends it back to the caller), or skip the item it "
    "cannot handle; a DataLoader's `num_workers=0` runs the same code in the main process, where its exit is seen"
)


# A process started by spawn or forkserver (a DataLoader worker under multiprocessing_context="spawn", mp.spawn's
# ranks, a Process) failed as it started, in spawn's bootstrap, before running anything it was sent: the sixty-
# seventh held-out set's im_spawn_main_class (a Dataset class defined under `if __name__ == "__main__":`) and
# im_spawn_plugin_by_path (a module the parent loaded from a file by its path).
# the error classify gives such a DataLoader worker's failure (`OSError: ...; in a DataLoader worker as it started,
# first: ...`), whatever its signature: the fix is the same wherever in the re-import it failed
STARTED_WORKER_SAYS = "; in a DataLoader worker as it started, first: "
SPAWN_REBUILD = (
    "a process started by spawn (or forkserver) rebuilds what its parent sent by importing it again, in a fresh "
    "interpreter: the main script as `__mp_main__`, whose top-level code runs again in the child (an unguarded "
    '`set_start_method`, a file read, an argument parsed) and whose `if __name__ == "__main__":` block does not (a '
    "class or function defined there does not exist in the child), and every other object by its module's name on the "
    "child's own sys.path (a path the parent added at run time or relative to a folder it left, a module it loaded "
    "from a file by path, are not there). Define what the child needs at the top level of a module it can import "
    "(an installed package, PYTHONPATH), or start it with fork where the platform allows"
)


# Lightning's refusal of a setting the program gave it (its class says so): raised in Lightning's code by design.
# Recorded: tests/data/usage/gpu_on_cpu, `Trainer(accelerator="gpu")` on a machine without one.
LIGHTNING_MISCONFIGURED = (
    "Lightning refused a setting the program gave it (the message says which): change "
    "that Trainer or LightningModule setting; where it asks for hardware this machine lacks (a GPU backend, "
    'more devices), `accelerator="auto"` takes what is here, and crashmatrix\'s `init` on the app offers the '
    "settings that run here"
)


# Hydra's instantiate could not build what a config's `_target_` names: a class path that does not resolve, or
# arguments the class refuses. Hydra catches it and prints its message alone, no traceback (recorded:
# tests/data/hydra-instantiate, run alone), so the stack seems to end in Hydra's own run_and_report.
HYDRA_INSTANTIATE = (
    "Hydra could not build what the config's `_target_` names (the message says which, and why): a class path "
    "misspelled or a module that does not import, or arguments the class does not take (a key misspelled in "
    "that config node); fix that config node or the class it names. HYDRA_FULL_ERROR=1 in the program's "
    "environment (the matrix's `env`) prints the chained exception's traceback"
)


# Hydra refusing an override before the app runs (classify.py tells it by Hydra's headline; no traceback).
HYDRA_OVERRIDE = (
    "Hydra refused an override the program was started with (the message says which, and why), before the app "
    "ran: a key the config lacks takes `+key=value`, one it has takes no `+` (`++key=value` either way), and "
    "`~key` deletes only a key that is there. A matrix passes its params and axes as these overrides "
    "(pass_params: overrides), and its preflight checks their keys against the app's config"
)


# A program that asks for CUDA of a torch built without it (the CPU wheel): torch asserts in its own code, by
# design. Recorded: tests/data/no-cuda, `.cuda()` on this CPU machine.
NO_CUDA_BUILD = (
    "the program asks for CUDA, and the torch it ran with is a build without it (`torch.version.cuda` is None): "
    "run it where a CUDA build of torch and a GPU are, or on the CPU (a device setting of the program's; "
    "crashmatrix's `init` on the app offers the settings that run here)"
)


# A process the kernel ended at one of its resource limits (setrlimit, `ulimit`, a batch system's limits): its
# place is where it was when the limit ran out, not a fault there. The signal alone tells it, whatever the
# signature (a worker's, the main's, a rank's). Recorded: tests/apps/cpu_limit.py (tests/test_death_dumps.py).
BY_SIGNAL = {
    "SIGXCPU": (
        "the kernel ended the process at its CPU-time limit (RLIMIT_CPU: `ulimit -t`, a `resource.setrlimit` in "
        "the program or a worker_init_fn, or a batch system's CPU-time limit); its place is where it was when the "
        "time ran out, not a fault there. Raise the limit (the job's CPU-time request), or spend less CPU in that "
        "process"
    ),
    # the seventy-first held-out set's hd_sighup_session_closed: no handler, the default ends the process
    "SIGHUP": (
        "the process got SIGHUP and had no handler for it, so it ended where it was. Where the hangup was the "
        "session's (the ssh connection or the terminal it was started from closed, a scheduler ended the session), "
        "run it detached from the session (`nohup`, `setsid`, tmux or screen, a batch job) or handle SIGHUP; where "
        "the program or a helper of its sent it (an `os.kill`, under inject placed at that call when the main "
        "process sent it), that kill is the bug, and detaching only hides it"
    ),
    "SIGXFSZ": (
        "the kernel ended the process as it wrote a file past its size limit (RLIMIT_FSIZE: `ulimit -f`, or a "
        "batch system's file-size limit): raise the limit, or write smaller files (checkpoints, logs rotated)"
    ),
}


# The host refused an allocation outright (MemoryError, DefaultCPUAllocator's `can't allocate memory`, errno
# 12): no OOM killer ended the process, its own request failed. Under Linux's default overcommit that is a
# request larger than the machine could ever give, or a limit on the process's address space (ulimit -v,
# RLIMIT_AS), which the program, its shell or a batch scheduler may set (the sixteenth held-out set's
# b_rlimit_as_alloc: the program's own cap).
# pickle refusing what the program handed it (an object sent to a process, a queue's item, torch.save's): the
# program's object, the same under every start method but fork's, which pickles neither a Process's target nor a
# DataLoader's dataset (a review's lambda transform and worker_init_fn defined in main(), under spawn).
PICKLE_REFUSED = (
    "pickle cannot write what the program gave it: a lambda, a function or class defined inside another function, "
    "a lock, an open file or a generator. Whatever is sent to another process (a DataLoader's dataset, collate_fn "
    "and worker_init_fn under spawn or forkserver, a Pool's task, a Process's target and arguments, a Queue's item) "
    "or saved (torch.save, copy.deepcopy) is pickled: define it at the top level of a module (functools.partial "
    "of a top-level function carries arguments), keep the rest out of it, or, for a DataLoader or a Process, "
    "start with fork where the platform allows"
)
_PICKLE_REFUSED = (
    r"^(?:AttributeError|(?:_pickle\.)?PicklingError|TypeError): (?:Can't pickle local object |Can't pickle "
    r"<(?:function|lambda)|cannot pickle '[\w.]+' object)"
)

MEMORY_REFUSED = (
    "the allocation itself was refused (no OOM killer ended the process): either a request larger than the "
    "machine could give (its size is in the message: a smaller batch or array, fewer or lighter DataLoader "
    "workers), or a limit on the process, which refuses far smaller ones: a cap on its address space (`ulimit "
    "-v`, `resource.setrlimit(RLIMIT_AS)`, a batch scheduler's virtual-memory limit such as Grid Engine's "
    "h_vmem; `cat /proc/PID/limits` shows them) or overcommit turned off (`/proc/sys/vm/overcommit_memory` 2)"
)


# What a signature says of its class -> what fixes it, the first that matches. The signature is the telling
# line, masked (verdict/signature.py); Hydra's headlines start it, an exception's type may lead them.
_BY_TEXT: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), fix)
    for pattern, fix in (
        (re.escape(f"UnpicklingError: {WEIGHTS_ONLY_HEAD} {UNPICKLER_SAYS} "), WEIGHTS_ONLY),
        (r"InvalidCxxCompiler: No working C\+\+ compiler found", NO_CXX_COMPILER),
        (r"^AssertionError: Torch not compiled with CUDA enabled(?:$| in )", NO_CUDA_BUILD),
        (rf"^(?:{HYDRA_OVERRIDE_REFUSED})", HYDRA_OVERRIDE),
        (rf"^(?:hydra\.errors\.InstantiationException: )?(?:{HYDRA_INSTANTIATE_FAILED})", HYDRA_INSTANTIATE),
        (r"MisconfigurationException: ", LIGHTNING_MISCONFIGURED),
        (r"^FileNotFoundError: (?!.*-packages/)", FILE_MISSING),  # not a file of an installed package's own
        (r"^worker_exited\b", WORKER_ENDED_ITSELF),
        (r" in multiprocessing/spawn\.py:_main$", SPAWN_REBUILD),
        (r"^memory_error\b", MEMORY_REFUSED),
        (_PICKLE_REFUSED, PICKLE_REFUSED),
        (r"^RuntimeError: can't start new thread\b", THREAD_REFUSED),
        (r"^libgomp: Thread creation failed\b", OPENMP_THREADS_REFUSED),
        (r"^(?:OSError|IOError): \[Errno (?:N|28|122)\] (?:No space left on device|Disk quota exceeded)", DISK_FULL),
        (
            r"^RuntimeError: (?:async generator|generator|coroutine) raised Stop(?:Async)?Iteration(?:$| in )",
            GENERATOR_STOPPED_FIX,
        ),
        (r"wandb\.errors\.errors\.UsageError: No API key configured", WANDB_NOT_LOGGED_IN),
        (_OPTION_PARSER_SAYS, USAGE_REFUSED),
        (r"^(?:glibc_heap_check|heap_corruption)\b", HEAP_CORRUPTED),
        (r"^(?:stack smashing|buffer overflow) detected\b", OVERFLOW_DETECTED),
    )
)


def _is_desync_hang(signature: str) -> bool:
    """A hang (no timeout ended it) whose ranks all wait in collectives, in different ones or reached from
    different places: `hang in barrier at train.py:run; all_reduce at train.py:log_metric` (hang_signature
    signs a rank in a collective `COLLECTIVE at PATH:FUNC`, a rank outside any by its place alone)."""
    if not signature.startswith(f"{HANG} in "):
        return False
    parts = signature[len(HANG) + 4 :].split("; ")
    return len(parts) > 1 and all(" at " in part for part in parts)


# the error classify gives a wait that ran out after a queue's feeder thread dropped an item (`_queue.Empty; a
# multiprocessing queue's feeder thread had dropped, unable to pickle it: TypeError: cannot pickle ...`)
FEEDER_SAYS = "; a multiprocessing queue's feeder thread had dropped, unable to pickle it: "
FEEDER_DROPPED = (
    "a multiprocessing queue's feeder thread pickles each item after put() has returned; an item it cannot pickle "
    "(a lock, a lambda, an open file in it) is dropped with its error printed, nothing raised, and the reader "
    "waits for it in vain: if the dropped item was the one this wait needed, keep what cannot be pickled out of "
    "it, or build that part where it is read"
)


# ... and where the wait's own kind has no fix of its own (`queue.Empty`: a review's slow producer)
FEEDER_NOT_IT = (
    "the wait ran out for its own reason: what should have put the item was slower than the timeout, or never "
    "put it (its process or thread failed or is stuck: its own output, or the stacks at a timeout, say which)"
)


def remedy_told(signature: str, signal: str, error: str) -> str:
    """What the verdict's error says of its kind where its signature cannot, first: a DataLoader worker that failed
    as spawn started it, wherever in the re-import it failed (an unguarded line of the main script, a file it reads
    there: a review's FileNotFoundError got the missing file's advice, where the fix was the guard); not where the
    program's own function raised as its object was rebuilt (a Dataset's `__setstate__`: a review's, fixed there,
    not by moving anything to the top level); else remedy()."""
    rebuilding = signature.endswith(":<module>") or signature.endswith(" in multiprocessing/spawn.py:_main")
    if STARTED_WORKER_SAYS in error and rebuilding:
        return SPAWN_REBUILD
    if FEEDER_SAYS in error:  # which queue's item it was, the text cannot tell: both fixes
        otherwise = remedy(signature, signal) or FEEDER_NOT_IT
        return f"{FEEDER_DROPPED}; if it was another's, {otherwise}"
    return remedy(signature, signal)


def remedy(signature: str, signal: str = "") -> str:
    """What fixes a failure of this signature (and signal, where it died by one), or "" where the class does
    not say."""
    if signal in BY_SIGNAL:
        return BY_SIGNAL[signal]
    if signature in REMEDIES:
        return REMEDIES[signature]
    if signature.startswith("cudnn_error ") and signature.endswith(" in cudnnCreate"):
        return CUDNN_SETUP
    for says, fix in _BY_TEXT:
        if says.search(signature):
            return fix
    missing = _MISSING_CONFIG_VALUE.search(signature)
    if missing:
        return _missing_config_value(missing.group(1))
    if _is_desync_hang(signature):
        return DESYNC
    peers = _PEERS_TOLD.search(signature)
    if peers is None or not COLLECTIVE_TIMEOUT.search(signature[: peers.start()]):
        return ""
    outside = any(_OUTSIDE.match(clause) for clause in peers.group(0)[2:].split("; "))
    return STRAGGLER if outside else DESYNC
