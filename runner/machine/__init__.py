"""The machine a run ran on: env.json's fingerprint.

fingerprint (the machine: kernel, WSL2, GPUs, driver), pyfacts (what one interpreter holds: Python,
glibc, packages, torch's view), facts_cache (an interpreter's answer kept on disk), gpu_arch
(whether the torch build has kernels for the GPU), gpus_here (the GPUs a cell would see, without torch).

Imports: the vocabulary and incell's atomic files.
"""
