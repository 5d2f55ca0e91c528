"""A custom op library defined at import (`torch.library.Library("cx_norm", "DEF")`), and a plugin loader that
loads every op file of the plugin folder by path under its own module name: this file, already imported as
zoo.modes.cx_library_namespace_twice, runs a second time and defines the namespace again."""

import glob
import importlib.util
import os

import torch

LIB = torch.library.Library("cx_norm", "DEF")
LIB.define("rms(Tensor x, float eps) -> Tensor")


def _rms(x: torch.Tensor, eps: float) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


LIB.impl("rms", _rms, "CompositeExplicitAutograd")


def load_plugin(path: str) -> None:
    name = "cx_plugin_" + os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


def main() -> None:
    x = torch.randn(4, 8)
    print(f"rms norm: {tuple(torch.ops.cx_norm.rms(x, 1e-6).shape)}", flush=True)
    for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "cx_lib*.py"))):
        print(f"loading op plugin {os.path.basename(path)}", flush=True)
        load_plugin(path)
