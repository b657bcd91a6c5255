"""Results files (schema schedbench.job/1) and the catalog as pandas DataFrames.

One row per point: the job's name, the point's label and status, every config parameter as a
column of its own (NaN where a point lacks it), the repetitions' statistics with a bootstrap
interval of the median (ci_low_ms, ci_high_ms; schedbench_results.stats), and the point's
counts, counters and parts of the time as `counts.<name>`, `counters.<name>` and
`parts_ms.<name>`. Reading needs no catalog; the figures and the report do."""

import json
import pathlib

import pandas as pd

from .stats import median_interval

JOB_SCHEMA = "schedbench.job/1"
CATALOG_SCHEMA = "schedbench.catalog/1"
STATS = ("median_ms", "mean_ms", "stddev_ms", "cv", "min_ms", "max_ms")
# Point fields copied as they are; a config parameter of one of these names is `config.<name>`.
SCALARS = ("status", "failure", "error", "digest", "gpu", "wall_s", "device_bytes",
           "finished_utc")
NESTED = ("counts", "counters", "parts_ms")
RESERVED = {"job", "label", "index", "repetitions", "repetitions_ms", "ci_low_ms", "ci_high_ms",
            *STATS, *SCALARS}


def read_document(path):
    """The JSON document at `path`, or None where it is not JSON (a log, an image)."""
    try:
        return json.loads(pathlib.Path(path).read_text())
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def is_job_results(doc):
    """Whether a parsed document is a job's results (schema schedbench.job/1)."""
    return isinstance(doc, dict) and doc.get("schema") == JOB_SCHEMA


def job_files(folder):
    """The results files of jobs in `folder`, by name: its *.json of schema schedbench.job/1
    (catalog.json, Google Benchmark files and single runs are skipped)."""
    return [p for p in sorted(pathlib.Path(folder).glob("*.json"))
            if is_job_results(read_document(p))]


def point_row(job_name, point):
    """One point as a flat {column: value}."""
    row = {"job": job_name, "label": point.get("label"), "index": point.get("index")}
    for key, v in (point.get("config") or {}).items():
        row[f"config.{key}" if key in RESERVED else key] = v
    row.update({key: point.get(key) for key in SCALARS})
    stats, reps = point.get("stats") or {}, point.get("repetitions_ms") or []
    row.update({key: stats.get(key) for key in STATS})
    ci = median_interval(reps)
    row.update(repetitions=len(reps), repetitions_ms=reps,
               ci_low_ms=ci[0] if ci else None, ci_high_ms=ci[1] if ci else None)
    for group in NESTED:
        row.update({f"{group}.{k}": v for k, v in (point.get(group) or {}).items()})
    return row


def job_rows(path):
    """The rows of the results file at `path`; ValueError for a file of another schema."""
    doc = read_document(path)
    if not is_job_results(doc):
        raise ValueError(f"{path}: not a job's results (schema {JOB_SCHEMA})")
    return [point_row(doc["job"]["name"], p) for p in doc.get("points", [])]


def read_results(path):
    """The results file at `path` as a DataFrame, one row per point; ValueError for a file of
    another schema."""
    return pd.DataFrame(job_rows(path))


def read_folder(folder):
    """Every job's results in `folder` as one DataFrame (column `job` tells them apart);
    ValueError where the folder holds none."""
    files = job_files(folder)
    if not files:
        raise ValueError(f"{folder}: no results files of schema {JOB_SCHEMA}")
    return pd.DataFrame([row for path in files for row in job_rows(path)])


def read_catalog(path):
    """catalog.json (`schedbench list --json`) as {"schedulers", "parameters", "sims"}: a
    DataFrame each, a row per entry in the catalog's order."""
    doc = read_document(path)
    if not isinstance(doc, dict) or doc.get("schema") != CATALOG_SCHEMA:
        raise ValueError(f"{path}: not a catalog (schema {CATALOG_SCHEMA})")
    return {key: pd.DataFrame(doc.get(key, [])) for key in ("schedulers", "parameters", "sims")}
