"""Results files (schema schedbench.job/1) and the catalog as pandas DataFrames.

One row per point: the job's name, the point's label and status, every config parameter as a
column of its own (NaN where a point lacks it), the repetitions' statistics with a bootstrap
interval of the median (ci_low_ms, ci_high_ms; schedbench_results.stats), and the point's
counts, counters and parts of the time as `counts.<name>`, `counters.<name>` and
`parts_ms.<name>`. Reading needs no catalog; the figures and the report do.

This module is the package's one reader of files: read_job and read_catalog_document open
nothing but regular files and check every value the package takes from them (check_results,
read_catalog_document), so that a bad file is an InputError naming it and the value, and no
later KeyError or TypeError."""

import json
import math
import os
import pathlib
import stat

import pandas as pd

from .errors import InputError
from .stats import median_interval

JOB_SCHEMA = "schedbench.job/1"
CATALOG_SCHEMA = "schedbench.catalog/1"
STATS = ("median_ms", "mean_ms", "stddev_ms", "cv", "min_ms", "max_ms")
TIMES = ("median_ms", "mean_ms", "min_ms", "max_ms")  # the STATS that are times
# Point fields copied as they are; a config parameter of one of these names is `config.<name>`.
SCALARS = ("status", "failure", "error", "digest", "gpu", "wall_s", "device_bytes",
           "finished_utc")
NESTED = ("counts", "counters", "parts_ms")
RESERVED = {"job", "label", "index", "repetitions", "repetitions_ms", "ci_low_ms", "ci_high_ms",
            *STATS, *SCALARS}


# --- reading: the one layer that checks what a file holds ------------------------------------

MAX_SHOWN = 200  # characters of a bad value a message quotes


def shown(value):
    """A value as JSON for a one-line message, cut to MAX_SHOWN characters."""
    text = json.dumps(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def file_kind(mode):
    """What lstat or fstat says a path is, in words."""
    kinds = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"),
             (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISLNK, "a symbolic link"))
    return next((words for test, words in kinds if test(mode)), "of an unknown kind")


def is_regular_file(path):
    """Whether `path` (its links followed) is a regular file; a dangling link or a loop of
    links is not."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):  # ValueError: a name with a NUL in it
        return False


def read_text(path):
    """The UTF-8 text of the regular file at `path`. Nothing but a regular file is read: it is
    opened without blocking (a FIFO would wait for a writer forever) and looked at before any
    read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot open it ({getattr(e, 'strerror', e)}); accepted: a "
                         "regular file") from e
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputError(f"{path} is {file_kind(mode)}; accepted: a regular file")
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read()
        except OSError as e:
            raise InputError(f"{path}: cannot read it ({e.strerror})") from e
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (byte {e.start}); accepted: JSON") from e


def refuse_constant(name):
    """json's hook for NaN and Infinity, which JSON does not have."""
    raise ValueError(f"{name} is not a JSON number")


def finite_float(text):
    """json's hook for a number with a fraction or exponent: 1e999 would be inf."""
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"{text} is out of range")
    return v


def parse_json(text):
    """The JSON document `text`, or None where it is not JSON as schedbench
    writes it: NaN, Infinity and numbers out of range are not, nor nesting so deep that Python's
    parser gives up, nor a string with half of a UTF-16 surrogate pair (no UTF-8 file can hold
    it)."""
    try:
        doc = json.loads(text, parse_constant=refuse_constant, parse_float=finite_float)
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):  # json.JSONDecodeError and UnicodeError are ValueErrors
        return None
    return doc


def read_json(path, what):
    """The JSON document at `path`; InputError naming `what` it should be where it is none."""
    doc = parse_json(read_text(path))
    if doc is None:
        raise InputError(f"{path}: not JSON; accepted: {what}")
    return doc


def is_number(v):
    """Whether a JSON value is a number (true and false are not)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Fields:
    """Checks the values of one JSON object of a file: each failure is one InputError naming
    the file, where the value is and what is accepted."""

    def __init__(self, path, where, doc):
        self.path, self.where = path, where
        if not isinstance(doc, dict):
            self.fail("", doc, "an object")
        self.doc = doc

    def fail(self, key, value, accepted):
        where = ".".join(w for w in (self.where, key) if w) or "(top level)"
        raise InputError(f"{self.path}: {where}: {shown(value)} is not accepted; accepted: "
                         f"{accepted}")

    def get(self, key, test, accepted, required=False):
        """The value at `key` where `test` takes it (None where it is absent and not required)."""
        if key not in self.doc:
            if required:
                raise InputError(f"{self.path}: {'.'.join(w for w in (self.where, key) if w)}: "
                                 f"missing; accepted: {accepted}")
            return None
        if not test(self.doc[key]):
            self.fail(key, self.doc[key], accepted)
        return self.doc[key]

    def object(self, key, required=False):
        """The Fields of the object at `key`, or None where it is absent (or null, if allowed)."""
        value = self.get(key, lambda v: isinstance(v, dict), "an object", required)
        return None if value is None else Fields(self.path, f"{self.where}.{key}".lstrip("."),
                                                 value)

    def numbers(self, key, required=False, test=is_number, accepted="a number"):
        """Checks that the object at `key` holds nothing but numbers."""
        group = self.object(key, required)
        for k in group.doc if group else ():
            group.get(k, test, accepted)

    def strings(self, *keys):
        """Checks that each of `keys` present is a string."""
        for key in keys:
            self.get(key, lambda v: isinstance(v, str), "a string")


NAME_RULE = ("a string without '/', '..' or control characters (it names the results file and "
             "the figures)")


def is_job_name(name):
    """Whether `name` may name a job: the job files' rule (jobs/README.md), NAME_RULE, for it
    names files (results/<device>/<name>.json, a report's figures)."""
    return (isinstance(name, str) and name != "" and "/" not in name and ".." not in name
            and not any(ord(c) < 0x20 or ord(c) == 0x7f for c in name))


def is_scalar(v):
    """Whether a JSON value is a config value: a string, number, true, false or null."""
    return v is None or isinstance(v, (str, int, float))


def is_count(v, low):
    """Whether a JSON value is a whole number from `low`."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


def positive(v):
    """Whether a JSON value is a number above 0."""
    return is_number(v) and v > 0


def check_point(path, index, point):
    """One point of a results file: what the readers, the figures and the report take from it."""
    p = Fields(path, f"points[{index}]", point)
    p.strings("label", "status", "failure", "error", "digest", "finished_utc")
    config = p.object("config", required=True)
    for key in config.doc:
        config.get(key, is_scalar, "a string, a number, true, false or null")
    config.strings("sim", "scheduler")
    p.get("index", lambda v: is_count(v, 0), "a whole number from 0")
    p.get("ranks", lambda v: is_count(v, 1), "a whole number from 1")
    for key in ("counts", "counters", "parts_ms", "stats"):
        p.numbers(key)
    if point.get("status") != "ok":
        return
    # A finished point is drawn, and the figures divide by its times.
    stats = p.object("stats", required=True)
    for key in STATS:
        if key in TIMES:
            stats.get(key, positive, "a time above 0", required=True)
        else:
            stats.get(key, lambda v: is_number(v) and v >= 0, "a number from 0", required=True)
    p.get("repetitions_ms", lambda v: isinstance(v, list) and all(positive(t) for t in v),
          "a list of times above 0", required=True)


def check_environment(top):
    """The environment a results file was measured in: what the report's tables show of it."""
    env = top.object("environment")
    if env is None:
        return
    for key in ("host", "build", "device"):
        env.get(key, lambda v: v is None or isinstance(v, dict), "an object or null")
    env.strings("time_utc")
    if env.doc.get("build"):
        env.object("build").strings("git_commit")
    if env.doc.get("device"):
        device = env.object("device")
        device.get("name", lambda v: isinstance(v, str), "a string", required=True)
        for key in ("sm_count", "max_threads_per_sm"):
            device.get(key, lambda v: is_count(v, 1), "a whole number above 0")
        device.get("nvidia_smi", lambda v: v is None or isinstance(v, dict), "an object or null")


def check_results(path, doc):
    """`doc`, read from `path`, where it is a job's results whose every value the package reads
    is as results/README.md's schema says; InputError naming the first value that is not."""
    if not is_job_results(doc):
        raise InputError(f"{path}: not a job's results; accepted: a file of schema {JOB_SCHEMA}")
    top = Fields(path, "", doc)
    job = top.object("job", required=True)
    job.get("name", is_job_name, NAME_RULE, required=True)
    job.strings("title", "description")
    for i, point in enumerate(top.get("points", lambda v: isinstance(v, list), "a list of points",
                                      required=True)):
        check_point(path, i, point)
    check_environment(top)
    return doc


def read_job(path):
    """The job results file at `path`, checked (check_results); InputError where it is not one."""
    return check_results(path, read_json(path, f"a file of schema {JOB_SCHEMA}"))


def is_job_results(doc):
    """Whether a parsed document is a job's results (schema schedbench.job/1)."""
    return isinstance(doc, dict) and doc.get("schema") == JOB_SCHEMA


def job_documents(folder):
    """[(path, checked document)] of the results files of jobs in `folder`, by name: its *.json
    of schema schedbench.job/1. Other files are skipped (catalog.json, Google Benchmark files,
    single runs, logs), and so is anything that is not a regular file: a directory, a FIFO or a
    dangling link named *.json. A file of that schema that breaks it is an InputError."""
    if not os.path.isdir(folder):
        raise InputError(f"{folder} is not a folder; accepted: a folder of job results files "
                         f"(schema {JOB_SCHEMA})")
    found = []
    for p in sorted(pathlib.Path(folder).glob("*.json")):
        doc = parse_json(read_text(p)) if is_regular_file(p) else None
        if is_job_results(doc):
            found.append((p, check_results(p, doc)))
    return found


def job_files(folder):
    """The results files of jobs in `folder`, by name (job_documents)."""
    return [path for path, _ in job_documents(folder)]


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


def job_rows(doc):
    """The rows of a checked results document (read_job)."""
    return [point_row(doc["job"]["name"], p) for p in doc["points"]]


def read_results(path):
    """The results file at `path` as a DataFrame, one row per point; InputError (a ValueError,
    schedbench_results.errors) for anything but a job's results file as its schema says."""
    return pd.DataFrame(job_rows(read_job(path)))


def read_folder(folder):
    """Every job's results in `folder` as one DataFrame (column `job` tells them apart);
    InputError where the folder holds none or one breaks its schema."""
    found = job_documents(folder)
    if not found:
        raise InputError(f"{folder}: no results files of schema {JOB_SCHEMA}")
    return pd.DataFrame([row for _, doc in found for row in job_rows(doc)])


CATALOG_LISTS = {"schedulers": ("name", "kind"), "parameters": ("key", "label", "role"),
                 "sims": ("name",)}


def read_catalog_document(path):
    """catalog.json as `schedbench list --json` writes it, checked: each of CATALOG_LISTS a list
    of objects with those fields, strings; InputError where it is not."""
    doc = read_json(path, f"`schedbench list --json` (schema {CATALOG_SCHEMA})")
    if not isinstance(doc, dict) or doc.get("schema") != CATALOG_SCHEMA:
        raise InputError(f"{path}: not a catalog; accepted: `schedbench list --json` (schema "
                         f"{CATALOG_SCHEMA})")
    top = Fields(path, "", doc)
    for key, fields in CATALOG_LISTS.items():
        entries = top.get(key, lambda v: isinstance(v, list), "a list", required=True)
        for i, entry in enumerate(entries):
            e = Fields(path, f"{key}[{i}]", entry)
            for field in fields:
                e.get(field, lambda v: isinstance(v, str), "a string", required=True)
    return doc


def read_catalog(path):
    """catalog.json (`schedbench list --json`) as {"schedulers", "parameters", "sims"}: a
    DataFrame each, a row per entry in the catalog's order; InputError where it is none."""
    doc = read_catalog_document(path)
    return {key: pd.DataFrame(doc[key]) for key in CATALOG_LISTS}
