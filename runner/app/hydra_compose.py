"""Child of `crashmatrix init`: compose a Hydra app's config and print it as JSON on stdout,
`{"config": {...}, "choices": {group: option or null}}` (the option each config group took).

Run by path (`python hydra_compose.py CONFIG_DIR CONFIG_NAME`) so it needs nothing of crashmatrix,
and in its own process so the controller never imports Hydra's app-side machinery or the app.
It imports Hydra only. On failure: one line on stderr, exit status 3.
"""

import os
import sys

# Run by path, Python puts this folder first on sys.path, where a module of runner's named like one
# of the standard library's (for Hydra) would shadow it.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import json  # noqa: E402  (after the sys.path edit above, on purpose)


def _plain(node):
    """The config as plain data, each value resolved where it can be; an interpolation that needs a
    running app (`${hydra:runtime.output_dir}`) stays as written."""
    from omegaconf import DictConfig, ListConfig, OmegaConf

    if isinstance(node, DictConfig):
        keys, get = list(node.keys()), node.__getitem__
    elif isinstance(node, ListConfig):
        keys, get = list(range(len(node))), node.__getitem__
    else:
        return node
    raw = OmegaConf.to_container(node, resolve=False)
    out = {} if isinstance(node, DictConfig) else []
    for k in keys:
        try:
            value = _plain(get(k))
        except Exception:  # noqa: BLE001 (an interpolation this process cannot resolve)
            value = raw[k]
        if isinstance(out, dict):
            out[str(k)] = value
        else:
            out.append(value)
    return out


def main(config_dir: str, config_name: str) -> int:
    try:
        from hydra import compose, initialize_config_dir
        from omegaconf import OmegaConf, open_dict

        with initialize_config_dir(config_dir=config_dir, version_base=None):
            cfg = compose(config_name=config_name, return_hydra_config=True)
        choices = OmegaConf.to_container(cfg.hydra.runtime.choices)
        with open_dict(cfg):
            del cfg["hydra"]
        data = {"config": _plain(cfg), "choices": choices}
    except Exception as e:  # noqa: BLE001 (any failure to compose is the answer, as one line)
        # Hydra appends its search path to a missing config; the first part says what is missing.
        message = " ".join(str(e).split()).split(" Config search path")[0] or type(e).__name__
        print(f"{type(e).__name__}: {message}", file=sys.stderr)
        return 3
    json.dump(data, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
