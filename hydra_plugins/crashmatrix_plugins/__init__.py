"""crashmatrix's Hydra plugins: `hydra/launcher=crashmatrix` and `hydra/sweeper=crashmatrix`.

Thin, as Hydra's own plugins are: the configs (config.py) and the classes Hydra finds; the work is done
by crashmatrix.hydra. Hydra discovers them through the namespace package hydra_plugins alone.
"""
