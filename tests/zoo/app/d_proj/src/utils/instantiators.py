import hydra
import pytorch_lightning as pl
from omegaconf import DictConfig

from src.utils.pylogger import get_logger

log = get_logger(__name__)


def instantiate_callbacks(callbacks_cfg: DictConfig) -> list[pl.Callback]:
    """Instantiates callbacks from config (lightning-hydra-template's)."""
    callbacks: list[pl.Callback] = []
    if not callbacks_cfg:
        log.warning("No callback configs found! Skipping..")
        return callbacks
    for _, cb_conf in callbacks_cfg.items():
        if isinstance(cb_conf, DictConfig) and "_target_" in cb_conf:
            log.info(f"Instantiating callback <{cb_conf._target_}>")
            callbacks.append(hydra.utils.instantiate(cb_conf))
    return callbacks
