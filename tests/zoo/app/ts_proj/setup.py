from setuptools import setup

setup(name="forecast", version="0.1", packages=["forecast"])
