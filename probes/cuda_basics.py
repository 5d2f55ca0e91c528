"""Hardware OK: tensor ops, matmul, conv forward/backward on the cell's device.

The first probe to run on a suspect box: if this fails, the driver, the GPU or
the torch build is at fault, not the training code. Each check compares the
device result with a float64 CPU reference, so a silently wrong GPU is a
failure too. device=cuda on a box without CUDA is a skip.
"""

from __future__ import annotations

from crashmatrix.probes import common

DESCRIPTION = "hardware OK: elementwise ops, matmul, conv forward/backward on the device, checked against CPU"

PARAMS: dict = {
    **common.COMMON_DEFAULTS,
    "steps": 5,
    "matmul_size": 256,
    "conv_channels": 16,
    "image_size": 32,
    "seed": 0,
}


def _device_info(torch, device, precision) -> dict:
    """What the checks ran on: the GPU, its capability and memory, CUDA and cuDNN versions."""
    info: dict = {"device": str(device), "precision": precision.label}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        info.update(
            gpu=props.name,
            capability=f"{props.major}.{props.minor}",
            gpu_total_mb=round(props.total_memory / 2**20),
            cuda=torch.version.cuda,
            cudnn=torch.backends.cudnn.version(),
        )
    return info


def main(params: dict) -> dict:
    import torch
    import torch.nn.functional as F

    p = common.with_defaults(params, PARAMS)
    device = common.device_for(p)
    precision = common.Precision(p["precision"], device)
    steps, n = int(p["steps"]), int(p["matmul_size"])
    c, size = int(p["conv_channels"]), int(p["image_size"])
    batch = int(p["batch_size"])
    g = torch.Generator().manual_seed(int(p["seed"]))
    metrics = common.Metrics()
    info = _device_info(torch, device, precision)

    # tolerance: loose enough for TF32 / reduced precision, tight enough to catch garbage
    tol = 5e-2 if precision.dtype is not None else 1e-2
    max_err = 0.0
    for step in range(steps):
        # elementwise + reduction
        x = torch.randn(1 << 16, generator=g)
        got = (torch.sin(x.to(device)) * 2 + x.to(device).exp().clamp(max=10)).sum().cpu().double()
        ref = (torch.sin(x.double()) * 2 + x.double().exp().clamp(max=10)).sum()
        max_err = max(max_err, _check("elementwise sum", got, ref, rtol=1e-3))

        # matmul
        a, b = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
        with precision.autocast():
            got = (a.to(device) @ b.to(device)).float().cpu()
        ref = (a.double() @ b.double()).float()
        common.check_finite("matmul output", got, where=f"step {step}")
        max_err = max(max_err, _check("matmul", got, ref, rtol=tol, scale=n**0.5))

        # conv forward/backward (cuDNN on GPU)
        img = torch.randn(batch, 3, size, size, generator=g)
        w = torch.randn(c, 3, 3, 3, generator=g) * 0.1
        xd = img.to(device).detach().clone().requires_grad_(True)
        wd = w.to(device).detach().clone().requires_grad_(True)
        with precision.autocast():
            out = F.conv2d(xd, wd, padding=1)
            loss = out.float().square().mean()
        loss.backward()
        value = common.check_loss(loss, step, name="conv loss")
        common.check_finite("conv weight grad", wd.grad, where=f"step {step}")
        xr, wr = img.double().requires_grad_(True), w.double().requires_grad_(True)
        ref_loss = F.conv2d(xr, wr, padding=1).square().mean()
        ref_loss.backward()
        grad, ref_grad = wd.grad, wr.grad
        assert grad is not None and ref_grad is not None  # both are leaves that require grad, after backward()
        max_err = max(max_err, _check("conv loss", torch.tensor(value).double(), ref_loss.detach(), rtol=tol))
        max_err = max(
            max_err,
            _check("conv weight grad", grad.double().cpu(), ref_grad, rtol=tol, scale=float(ref_grad.abs().max())),
        )
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        metrics.step(value)
    return metrics.result(max_rel_err=round(max_err, 6), **info)


def _check(what: str, got, ref, *, rtol: float, scale: float | None = None) -> float:
    """Relative error of got vs ref; AssertionError when it is beyond rtol."""
    denom = scale if scale is not None else max(float(ref.abs().max()), 1e-12)
    err = float((got.double() - ref.double()).abs().max()) / max(denom, 1e-12)
    if not err <= rtol:  # also catches NaN
        raise AssertionError(
            f"{what}: device result differs from the CPU float64 reference (relative error {err:.3g} > {rtol})"
        )
    return err
