"""The project's OmegaConf resolvers (registered by train.py before Hydra composes the config)."""

from omegaconf import OmegaConf


def register() -> None:
    OmegaConf.register_new_resolver("mc.jitter", lambda scale: float(scale) * 0.5, replace=True)
