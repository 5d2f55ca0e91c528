"""Each job's Hydra output directory is its own, whatever the app's `hydra.sweep.subdir`.

Hydra names a job's folder by the app's pattern, often `${hydra.job.override_dirname}`: the job's overrides
less `exclude_keys`, sorted, joined with `item_sep`, `=` turned into `kv_sep` (Hydra's own
get_overrides_dirname). The knobs never reach the app's config, so Hydra alone would leave them out, and
two jobs that differ only in a knob would write into one folder. Here override_dirname is computed over
all the job's overrides, knobs included (the app still never sees a knob as a config key), and each job's
folder is resolved before any job of the batch runs:

- a job that repeats an earlier one's overrides exactly (hunt runs a flaky cell again) gets the earlier
  folder with `-r<k>` after it, as crashmatrix's own run folders are numbered;
- two jobs with different overrides that still resolve to one folder (a pattern that leaves out what tells
  them apart, an excluded key) are refused, one line naming the pattern, before any job of the batch runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from crashmatrix.hydra.jobs import SweepInputError, SweepJob


@dataclass(frozen=True)
class JobOutput:
    """What a job's process sets before Hydra's run_job: override_dirname, and the subdir where the
    pattern's own would be an earlier job's (None: the pattern as it is)."""

    override_dirname: str
    subdir: str | None = None


def override_dirname(overrides, config) -> str:
    """Hydra's override_dirname of the job's overrides, knobs included, with the app's kv_sep, item_sep and
    exclude_keys (hydra.job.config.override_dirname)."""
    from hydra._internal.config_loader_impl import get_overrides_dirname
    from hydra.core.override_parser.overrides_parser import OverridesParser

    settings = config.hydra.job.config.override_dirname
    parsed = [o for o in OverridesParser.create().parse_overrides(list(overrides)) if not o.is_hydra_override()]
    return get_overrides_dirname(
        overrides=parsed,
        exclude_keys=list(settings.exclude_keys),
        item_sep=settings.item_sep,
        kv_sep=settings.kv_sep,
    )


def _pattern(config) -> str:
    from omegaconf import OmegaConf

    sweep = OmegaConf.to_container(config.hydra.sweep, resolve=False)
    return str(sweep.get("subdir") if isinstance(sweep, dict) else sweep)


def _resolved(config) -> str | None:
    """The job's subdir as Hydra would resolve it; None where it needs what only the job's process has."""
    from omegaconf import OmegaConf

    try:
        return str(OmegaConf.select(config, "hydra.sweep.subdir"))
    except Exception:
        return None


class OutputDirs:
    """The sweep's job folders so far (every batch of it): folder -> (the job's number, its overrides)."""

    def __init__(self) -> None:
        self.taken: dict[str, tuple[int, tuple]] = {}

    def assign(self, jobs: list[SweepJob], configs: list) -> list[JobOutput]:
        """Each job's output, its config's override_dirname set to it; SweepInputError for a batch whose
        jobs would share a folder (nothing of the batch has run)."""
        from omegaconf import open_dict

        outputs, taken = [], dict(self.taken)
        for job, config in zip(jobs, configs):
            dirname = override_dirname(job.overrides, config)
            with open_dict(config):
                config.hydra.job.override_dirname = dirname
            subdir, own = _resolved(config), None
            if subdir is not None:
                key = tuple(sorted(job.overrides))
                k, candidate = 0, subdir
                while candidate in taken and taken[candidate][1] == key:
                    k += 1
                    candidate = f"{subdir}-r{k}"
                if candidate in taken:
                    num, other = taken[candidate]
                    raise SweepInputError(
                        f"crashmatrix: hydra.sweep.subdir {_pattern(config)!r} gives job #{num} ({' '.join(other)}) "
                        f"and job #{job.num} ({' '.join(sorted(job.overrides))}) one folder, {subdir!r}; no job of "
                        "this batch ran: name each job's folder by what tells them apart (${hydra.job.num}, "
                        "${hydra.job.override_dirname} with no key that differs excluded)"
                    )
                taken[candidate] = (job.num, key)
                if candidate != subdir:
                    own = candidate
                    with open_dict(config):
                        config.hydra.sweep.subdir = own
            outputs.append(JobOutput(dirname, own))
        self.taken = taken
        return outputs
