"""The experiments as they were launched: each case's Hydra overrides, as typed after `python train.py`."""

CASES = {
    # the packed-record reader, two DataLoader workers
    "worker_ctypes_segv": ["data=packed", "data.loader.num_workers=2"],
    # the token dataset, instantiated with _recursive_: false so that its augment config stays a config
    "worker_recursive_tokenizer": ["data=tokens"],
    # the optimizer config copied from a Lightning template (_partial_: true)
    "partial_optimizer": ["optim=adamw"],
    # accumulation switched off the way the README's table says: 0
    "resolver_zero_div": ["trainer.accumulate=0"],
    # the warm feature cache, filled by a background thread while the workers start
    "worker_fork_lock_hang": ["data.loader.num_workers=2", "data.dataset.warm_cache=true"],
    # a width sweep with the basic launcher, one seed per job
    "multirun_seed_index": ["--multirun", "model.width=8,16,32"],
}
