"""The program's own C helper (gcc at run time, -fstack-protector-strong, ctypes) formats a run's tag into a
32-byte stack buffer with strcpy/strcat; an experiment name longer than the buffer overruns it and glibc's stack
protector aborts the process when the function returns."""

import ctypes
import os
import subprocess
import tempfile

SOURCE = r"""
#include <stdio.h>
#include <string.h>

int tag_length(const char *experiment, int seed) {
    char tag[32];
    char suffix[16];
    snprintf(suffix, sizeof suffix, "-s%d", seed);
    strcpy(tag, experiment);
    strcat(tag, suffix);
    return (int)strlen(tag);
}
"""


def build_helper() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="cxtag-")
    src, lib = os.path.join(folder, "tag.c"), os.path.join(folder, "libtag.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-fstack-protector-strong", "-shared", "-fPIC", "-o", lib, src], check=True)
    helper = ctypes.CDLL(lib)
    helper.tag_length.argtypes = [ctypes.c_char_p, ctypes.c_int]
    helper.tag_length.restype = ctypes.c_int
    return helper


def run_tag(helper: ctypes.CDLL, experiment: str, seed: int) -> int:
    return helper.tag_length(experiment.encode(), seed)


def main() -> None:
    helper = build_helper()
    for experiment in ["vit-small", "resnet50-ft", "vit-base-patch16-384-in21k-ft-cifar100-mixup-cutmix-ema"]:
        print(f"{experiment}: tag of {run_tag(helper, experiment, 1234)} chars", flush=True)
