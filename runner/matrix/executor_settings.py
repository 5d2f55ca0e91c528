"""The matrix's `executor:` section: its keys, their checks, and what submitit calls them.

The matrix model checks this section when a file is loaded (show and local runs
included), so it lives apart from the submitter (crashmatrix.engine.executors), which needs
submitit and the supervisor a job runs.
"""

from __future__ import annotations

import math

from crashmatrix.errors import BadInput

# Keys of the matrix's `executor:` section and what submitit calls them.
SLURM_KEYS = {
    "partition": "slurm_partition",
    "time_min": "timeout_min",
    "cpus_per_task": "cpus_per_task",
    "mem_gb": "mem_gb",
    "gpus_per_task": "slurm_gpus_per_task",
    "gpus_per_node": "gpus_per_node",
    "array_parallelism": "slurm_array_parallelism",
    "additional": "slurm_additional_parameters",
    "setup": "slurm_setup",
    "account": "slurm_account",
    "qos": "slurm_qos",
    "constraint": "slurm_constraint",
    "exclude_nodes": "slurm_exclude",
    # a distributed cell's ranks as Slurm tasks (crashmatrix.process.slurm_tasks)
    "nodes": "nodes",
    "tasks_per_node": "tasks_per_node",
}
RANK_KEYS = ("tasks_per_node", "nodes")
# each_node and nodelist make a fleet: every cell once on every node (crashmatrix.engine.fleet).
OWN_KEYS = {"cells_per_job", "poll_s", "queue_check_s", "each_node", "nodelist"}
_WARNING_S = 90  # Slurm's warning before a job's time limit (submitit's default slurm_signal_delay_s)
_WARNING_EARLY_S = 60  # how much earlier Slurm may send it: its event handling's resolution (sbatch --signal)


def check_settings(settings: dict, path: str) -> None:
    """The `executor:` section, checked when the matrix is loaded (show and local runs included)."""
    for key in settings:
        if key not in SLURM_KEYS and key not in OWN_KEYS:
            raise BadInput(
                f"{path}: executor.{key}: unknown setting (known: {', '.join(sorted(SLURM_KEYS) + sorted(OWN_KEYS))})"
            )
    for key in ("cells_per_job", "array_parallelism", "cpus_per_task", "gpus_per_task", "gpus_per_node", *RANK_KEYS):
        value = settings.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise BadInput(f"{path}: executor.{key}: expected a whole number >= 1, got {value!r}")
    for key in ("poll_s", "queue_check_s", "time_min", "mem_gb"):
        value = settings.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value == float("inf")
        ):
            raise BadInput(f"{path}: executor.{key}: expected a number > 0, got {value!r}")
    if "each_node" in settings and not isinstance(settings["each_node"], bool):
        raise BadInput(f"{path}: executor.each_node: expected true or false, got {settings['each_node']!r}")
    if "nodelist" in settings and not (isinstance(settings["nodelist"], str) and settings["nodelist"].strip()):
        raise BadInput(
            f"{path}: executor.nodelist: expected Slurm's node list, e.g. n[1-32], got {settings['nodelist']!r}"
        )
    if settings.get("each_node") and int(settings.get("nodes", 1)) > 1:
        # A fleet pins each job to one node; a cell whose ranks span nodes would need several.
        raise BadInput(f"{path}: executor.nodes: a fleet (each_node: true) runs each cell on one node; nodes must be 1")
    if "nodelist" in settings and not settings.get("each_node"):
        raise BadInput(f"{path}: executor.nodelist: goes with each_node: true (the nodes a fleet runs every cell on)")
    if "additional" in settings and not isinstance(settings["additional"], dict):
        raise BadInput(f"{path}: executor.additional: expected a mapping of sbatch option: value")
    if "setup" in settings and not (
        isinstance(settings["setup"], list) and all(isinstance(x, str) for x in settings["setup"])
    ):
        raise BadInput(f"{path}: executor.setup: expected a list of shell lines")


def check_executor(settings: dict, executor: str, path: str) -> None:
    """Settings that only one executor can honour, checked before anything is sent."""
    given = [key for key in RANK_KEYS if key in settings]
    if given and executor != "slurm":
        raise BadInput(
            f"{path}: executor.{given[0]}: a cell's ranks run as Slurm tasks, only with --executor slurm "
            f"(not {executor})"
        )


def rank_layout(settings: dict) -> tuple[int, int] | None:
    """(nodes, tasks per node) of a cell whose ranks run as Slurm tasks; None for a one-process cell."""
    if not any(key in settings for key in RANK_KEYS):
        return None
    return int(settings.get("nodes", 1)), int(settings.get("tasks_per_node", 1))


def submitit_parameters(executor_settings: dict, cluster: str, matrix_timeout: float, cells_per_job: int) -> dict:
    """submitit's update_parameters() for the section: Slurm's keys on Slurm, the resource keys everywhere."""
    params: dict = {}
    for key, value in executor_settings.items():
        if key in OWN_KEYS:
            continue
        if cluster == "slurm" or SLURM_KEYS[key] in ("timeout_min", "gpus_per_node", "cpus_per_task", "mem_gb"):
            params[SLURM_KEYS[key]] = value
    # A job must outlive its cells' own timeouts, so that a hang ends as `timeout`, not as a lost job; and
    # its cells must end before Slurm's warning (SIGUSR2 90 s before the limit, which stops them), which Slurm
    # may send up to a minute early: with a 2-minute limit it came 1 s into a job, and its cell was lost.
    work_s = cells_per_job * (matrix_timeout + 30)
    params.setdefault("timeout_min", max(2, math.ceil((work_s + _WARNING_S + _WARNING_EARLY_S) / 60) + 1))
    if cluster == "slurm":
        params.setdefault("slurm_array_parallelism", 64)
        if rank_layout(executor_settings):
            # The supervisor runs in the batch step: each cell's srun step then has the job's
            # every task to itself (submitit's own srun would hold one of them). The warning before
            # the time limit goes to it alone (B:), which stops the cells as a scancel does; sent to
            # the steps, it would kill the ranks (SIGUSR2's default) as if they had crashed.
            params["slurm_use_srun"] = False
            extra = dict(params.get("slurm_additional_parameters") or {})
            extra.setdefault("signal", f"B:USR2@{_WARNING_S}")
            params["slurm_additional_parameters"] = extra
    return params
