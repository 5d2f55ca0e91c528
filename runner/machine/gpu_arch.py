"""Whether the torch build has kernels for the GPU: a GPU outside `torch.cuda.get_arch_list()`.

A build without code for the GPU's compute capability is a classic cause of
"no kernel image is available" and "an illegal instruction was encountered".
CUDA's compatibility rules: a cubin built for sm_XY runs on a GPU of the same
major version X and minor >= Y; PTX (compute_XY) is compiled at load time for
any GPU of capability >= X.Y.
"""

from __future__ import annotations

import re

_ARCH = re.compile(r"^(sm|compute)_(\d+)(\d)[a-z]?$")


def _parse(arch: str) -> tuple[str, int, int] | None:
    m = _ARCH.match(arch.strip())
    return (m[1], int(m[2]), int(m[3])) if m else None


def runs_on(capability: str, arch_list: list[str]) -> bool:
    """True when the build has a cubin or PTX the GPU of `capability` ("9.0") can run."""
    try:
        major, minor = (int(p) for p in capability.split("."))
    except ValueError:
        return True  # unknown: nothing to flag
    for kind, a_major, a_minor in filter(None, map(_parse, arch_list)):
        if kind == "sm" and a_major == major and a_minor <= minor:
            return True
        if kind == "compute" and (a_major, a_minor) <= (major, minor):
            return True
    return False


def missing(gpus: list[dict], arch_list: str) -> str:
    """`NVIDIA X (capability 12.0) not in the build's sm_50 ... sm_90`, one clause per such GPU; "" if none."""
    archs = arch_list.split()
    if not archs:
        return ""  # a CPU build, or torch not asked: nothing to compare
    out = [
        f"{g.get('name', 'GPU')} (capability {g['capability']}) not in the build's {arch_list}"
        for g in gpus
        if g.get("capability") and not runs_on(g["capability"], archs)
    ]
    return "; ".join(dict.fromkeys(out))
