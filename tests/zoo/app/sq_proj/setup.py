"""seqlab: small sequence models written with torch.nn alone (the forty-second held-out set's project)."""

from setuptools import find_packages, setup

setup(name="seqlab", version="0.1", packages=find_packages())
