"""w_proj's package: its registry, config loader, model, datamodule and callbacks."""

from w_lib import callbacks, datamodule, model  # noqa: F401  (each registers its classes)
