"""How strict the run is about warnings and numerics (the team's "no silent problems" settings)."""

import warnings

import numpy as np


def strict_warnings() -> None:
    """Every warning is an error, as the CI's `-W error` runs do."""
    warnings.simplefilter("error")


def strict_numerics() -> None:
    """Every numpy floating-point problem is an error, to catch NaNs at their source."""
    np.seterr(all="raise")
