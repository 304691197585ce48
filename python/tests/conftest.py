import os
import random

import pytest


@pytest.fixture
def rng(request):
    """A seeded random generator; the seed is printed when a test fails."""
    seed = int(os.environ.get("QUIVER_TEST_SEED", "0")) or random.randrange(1, 2**31)
    request.node.user_properties.append(("seed", seed))
    r = random.Random(seed)
    r.seed_value = seed
    return r


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for name, value in item.user_properties:
            if name == "seed":
                report.sections.append(("seed", f"QUIVER_TEST_SEED={value} reproduces this run"))


@pytest.fixture(scope="session")
def reader():
    """The Parquet reader under test: `quiver` (read_table, read_parquet, ParquetFile), or
    the pyarrow stand-in under QUIVER_READER_STANDIN=pyarrow (reader_compare.reader_api).
    Tests using it skip while quiver.read_table is not built."""
    from reader_compare import reader_api
    return reader_api()



# `make test-python` runs two pytest-xdist workers with --dist loadfile: each file runs
# whole on one worker, so its module-scoped fixtures (a moto S3 server on a free port,
# generated files, an installed tree) start once.
# - The Dask LocalCluster (test_dask.py, 2 worker processes) and local Ray (test_ray.py,
#   ray.init(num_cpus=2)) files are one unit: one after the other on one worker, never
#   both clusters at once beside the other pytest worker on a 2-core machine.
# - Units go out longest first (xdist's own order is by number of tests, which left the
#   few long tests of Ray, Dask and test_install for the end): LONGEST, measured with
#   --durations, then the rest by number of tests; the many short files even out the end.
ONE_UNIT = {"test_dask.py": "dask+ray", "test_ray.py": "dask+ray"}
LONGEST = ["python/tests/test_cdc.py", "dask+ray", "python/tests/test_parquet_write.py",
           "python/tests/test_pruning.py", "python/tests/test_golden.py",
           "python/tests/test_parquet_sinks.py", "python/tests/test_parquet_pages.py",
           "python/tests/test_parquet_version.py", "python/tests/test_reader_api.py",
           "python/tests/test_parquet_bloom.py", "python/tests/test_install.py"]


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # before xdist's own (firstresult)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from collections import OrderedDict

    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(OrderedDict):
        """The work queue: xdist fills it in its order; LONGEST units move to the front."""

        def __setitem__(self, unit, tests):
            super().__setitem__(unit, tests)
            if unit in LONGEST:
                for first in reversed(LONGEST):
                    if first in self:
                        self.move_to_end(first, last=False)

    class Scheduling(LoadFileScheduling):
        def __init__(self, config, log=None):
            super().__init__(config, log)
            self.workqueue = LongestFirst()

        def _split_scope(self, nodeid):
            path = super()._split_scope(nodeid)
            return ONE_UNIT.get(path.rsplit("/", 1)[-1], path)

    return Scheduling(config, log)
