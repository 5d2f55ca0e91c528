"""The project's own OmegaConf resolvers, registered before Hydra composes the config."""

from omegaconf import OmegaConf


def register() -> None:
    OmegaConf.register_new_resolver("mul", lambda a, b: int(a) * int(b), replace=True)
