from setuptools import find_packages, setup

setup(name="o-dist", version="0.1", packages=find_packages())
