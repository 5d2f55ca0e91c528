"""The training cases, one per `--case`."""

import sys

import torch

from qtensor.data import LoggedWindows, MaskedWindows, loader
from qtensor.model import QuantLinear, QuantMLP


def worker_recursion_segv() -> None:
    """The logging tensor's own ``abs().max()`` re-enters its ``__torch_function__``; the raised recursion
    limit lets it run until the worker's C stack overflows."""
    sys.setrecursionlimit(1_000_000)
    for step, batch in enumerate(loader(LoggedWindows())):
        print(f"step {step}: batch {tuple(batch.shape)}", flush=True)


def worker_notimpl_sum() -> None:
    """The masked tensor leaves ``sum`` to others (NotImplemented); nobody else takes it."""
    for step, batch in enumerate(loader(MaskedWindows())):
        print(f"step {step}: batch {tuple(batch.shape)}", flush=True)


def ops_infer_schema() -> None:
    """The fused ops module declares an op with a dict parameter; custom_op infers the schema at import."""
    print("loading fused ops", flush=True)
    from qtensor import fused

    x = torch.randn(4, 8)
    print(fused.fused_requant(x, {"scale": 0.1}))


def compile_subclass_fullgraph() -> None:
    """The quantised model compiled with fullgraph=True: the int8 weight subclass has no __tensor_flatten__."""
    model = QuantMLP()
    step = torch.compile(model, fullgraph=True)
    x = torch.randn(4, 8)
    print("compiling the quantised step", flush=True)
    print(step(x).sum().item())


def param_detach_plain() -> None:
    """The frozen int8 layer registers its Int8Weight as a Parameter; Parameter checks what detach() returns."""
    print("building the int8 head", flush=True)
    head = QuantLinear(8, 4)
    print(head(torch.randn(2, 8)).shape)


CASES = {
    f.__name__: f
    for f in (
        worker_recursion_segv,
        worker_notimpl_sum,
        ops_infer_schema,
        compile_subclass_fullgraph,
        param_detach_plain,
    )
}
