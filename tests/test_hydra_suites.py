"""Hydra's own launcher suites, shipped in hydra-core, held against `hydra/launcher=crashmatrix`: the bar
Hydra's own launcher plugins are held to (their tests are these suites, parametrized with their name).

LauncherTestSuite runs sweeps in this process (Hydra's pytest plugin gives its fixtures); each job still
runs in a fresh process of its own. IntegrationTestSuite runs real apps, written by the suite, with `-m`.
"""

import pytest
from hydra.core.plugins import Plugins
from hydra.plugins.launcher import Launcher
from hydra.plugins.sweeper import Sweeper
from hydra.test_utils.launcher_common_tests import IntegrationTestSuite, LauncherTestSuite
from pytest import mark

pytestmark = pytest.mark.slow  # Hydra's own launcher and sweeper suites: 30 sweeps of real jobs


def test_hydra_discovers_the_launcher_and_the_sweeper():
    assert "CrashmatrixLauncher" in [x.__name__ for x in Plugins.instance().discover(Launcher)]
    assert "CrashmatrixSweeper" in [x.__name__ for x in Plugins.instance().discover(Sweeper)]


@mark.parametrize("launcher_name, overrides", [("crashmatrix", [])])
class TestCrashmatrixLauncher(LauncherTestSuite):
    pass


# The same suite through crashmatrix's sweeper (its default strategy, full): the sweeps it asserts are
# the basic sweeper's, and the sweeper must give the same jobs, directories and returns. With Hydra's
# basic launcher (in this process, fast): a failure here is the sweeper's, the launcher having its own
# run above. The suite's other checks (BatchedSweeperTestSuite) are for sweepers with max_batch_size,
# which this one has not: full and pairwise launch one batch, hunt as many as it chooses.
@mark.parametrize("launcher_name, overrides", [("basic", ["hydra/sweeper=crashmatrix"])])
class TestCrashmatrixSweeper(LauncherTestSuite):
    pass


# Hydra 1.1 and later: a config that swaps a default of Hydra's says `override`.
@mark.parametrize(
    "task_launcher_cfg, extra_flags",
    [({"defaults": [{"override hydra/launcher": "crashmatrix"}]}, ["-m"])],
)
class TestCrashmatrixLauncherIntegration(IntegrationTestSuite):
    pass
