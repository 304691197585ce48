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
