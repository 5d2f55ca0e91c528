"""The app's custom resolvers, registered before Hydra composes the config."""

from omegaconf import OmegaConf


def steps_per_epoch(size: int, batch_size: int, accumulate: int) -> int:
    return size // (batch_size * accumulate)


def register() -> None:
    OmegaConf.register_new_resolver("steps_per_epoch", steps_per_epoch, replace=True)
