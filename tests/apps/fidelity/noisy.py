"""A module of the warnings programs that warns from its own name (`noisy`), for filters scoped by module."""

import warnings


def speak() -> None:
    warnings.warn("noisy user warning", UserWarning)
    warnings.warn("noisy deprecation", DeprecationWarning)
    warnings.warn("hush: noisy but quiet by message", UserWarning)
    warnings.warn("noisy runtime warning", RuntimeWarning)
    print("noisy spoke")


def speak_for_the_caller() -> None:
    warnings.warn("blames its caller", UserWarning, stacklevel=2)
