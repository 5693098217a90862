import os
import sys

import pytest


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for every Spark test (a JVM start costs seconds): two worker
    threads, so a job really runs in two partitions at once, and no web UI."""
    from pyspark.sql import SparkSession

    # The Python workers must be this interpreter, the one robots_eval is installed in.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("robots-eval-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
