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
# generated files, an installed tree) start once; the files with the most tests go first.
# The Dask LocalCluster (test_dask.py, 2 worker processes) and local Ray (test_ray.py,
# ray.init(num_cpus=2)) files are one unit: one after the other on one worker, never both
# clusters at once beside the other pytest worker on a 2-core machine.
ONE_UNIT = {"test_dask.py": "dask+ray", "test_ray.py": "dask+ray"}


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # before xdist's own (firstresult)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid):
            path = super()._split_scope(nodeid)
            return ONE_UNIT.get(path.rsplit("/", 1)[-1], path)

    return Scheduling(config, log)
