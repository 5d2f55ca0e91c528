"""The fingerprint's GPU facts: WSL2's /dev/dxg, the torch build's CUDA architectures, a GPU the build lacks.

No GPU here: the GPU side (names, capabilities, arch lists) is given as facts, as env.json holds them
from a GPU machine; `crashmatrix env` runs for real and shows what this CPU machine has.
"""

import json

import pytest
from conftest import crashmatrix

from crashmatrix.answers import compare
from crashmatrix.machine import gpu_arch
from crashmatrix.machine.fingerprint import one_line

# torch 2.x cu12x wheels' torch.cuda.get_arch_list().
CU12_ARCHS = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"


@pytest.mark.parametrize(
    "capability, archs, runs",
    [
        ("9.0", CU12_ARCHS, True),
        ("8.9", CU12_ARCHS, True),  # Ada runs sm_86 cubins: same major, higher minor
        ("12.0", CU12_ARCHS, False),  # Blackwell on a build without sm_120: "no kernel image", "illegal instruction"
        ("12.0", CU12_ARCHS + " compute_90", True),  # PTX JIT-compiles for a newer GPU
        ("7.0", "sm_80 sm_90", False),
    ],
)
def test_a_gpu_runs_on_a_build_by_cudas_compatibility_rules(capability, archs, runs):
    assert gpu_arch.runs_on(capability, archs.split()) is runs


def test_a_gpu_outside_the_builds_archs_is_flagged_in_the_machine_line():
    gpus = [{"name": "NVIDIA GeForce RTX 5090", "capability": "12.0"}]
    flag = gpu_arch.missing(gpus, CU12_ARCHS)
    assert flag == f"NVIDIA GeForce RTX 5090 (capability 12.0) not in the build's {CU12_ARCHS}"
    assert one_line({"host": "h", "arch_missing": flag}).endswith("WARNING " + flag)
    assert gpu_arch.missing(gpus, "") == ""  # a CPU build: nothing to compare


def test_compare_shows_dxg_and_the_arch_list_where_they_differ():
    linux = {"host": "a", "dxg": False, "cuda_arch_list": CU12_ARCHS, "gpu_capability": "9.0"}
    wsl = {"host": "a", "dxg": True, "cuda_arch_list": "sm_80 sm_90", "gpu_capability": "9.0"}
    keys = [k for k, _values in compare.fingerprint_differences([linux, wsl])]
    assert keys == ["cuda_arch_list", "dxg"]
    assert compare.FIELD_NAMES["dxg"] == "/dev/dxg (WSL2 GPU)"


def test_env_records_dxg_and_the_arch_list_on_this_machine(tmp_path):
    proc = crashmatrix("env", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    facts = json.loads(proc.stdout)
    assert facts["dxg"] is False  # not WSL2 here
    if facts["cuda_available"]:  # a lent GPU (an H100 ran this): its build lists sm_90 and nothing is flagged
        assert "sm_" in facts["cuda_arch_list"], facts
    else:  # CPU torch: no CUDA archs, nothing flagged
        assert facts["cuda_arch_list"] == ""
    assert facts["arch_missing"] == ""
