"""An image-and-token classifier whose preprocessing runs in a small C helper (i_ops/csrc), built with gcc
into a shared library at first use and loaded with ctypes (tests/zoo/HELDOUT21.md)."""

from setuptools import find_packages, setup

setup(name="i-augment", version="0.1.0", packages=find_packages(), install_requires=["torch", "numpy"])
