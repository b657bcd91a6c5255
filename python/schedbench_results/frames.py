"""Results files (schema schedbench.job/1), run records (`schedbench run --json`, schema
schedbench.run/1) and the catalog as pandas DataFrames.

One row per point: the file it came from (`source`), the job's name, the point's label and
status, every config parameter as a column of its own (NaN where a point lacks it), the
repetitions' statistics, the interval of the median that the file records (ci_low_ms,
ci_high_ms at ci_level: stats.median_lo_ms, median_hi_ms and interval_level, NaN in files
from before it was recorded), whether the file marks the point `noisy`, the GPU's state for its
runs (`l2`, `clocks_locked`, `clock_lock_refused`), and the point's counts, counters, parts of
the time and energy as `counts.<name>`, `counters.<name>`, `parts_ms.<name>` and
`energy.<name>`. A
run record is one row of one repetition (its time_ms), its label the sweep point it ran
(`job.point`) where a sweep wrote it, its rates as `counters.<name>`. Reading needs no catalog;
the figures and the report do.

A folder holds at most one results file per job: a second one (two sweeps of one job, a shard
beside its merge) is an InputError naming both files, for read_folder as for the report, so
that no reader mixes two sweeps' points or silently keeps one of them.

This module is the package's one reader of files: read_job and read_catalog_document open
nothing but regular files and check every value the package takes from them (check_results,
read_catalog_document), so that a bad file is an InputError naming it and the value, and no
later KeyError or TypeError."""

import json
import math
import os
import pathlib
import stat
import subprocess

import pandas as pd

from .errors import InputError

JOB_SCHEMA = "schedbench.job/1"
RUN_SCHEMA = "schedbench.run/1"
CATALOG_SCHEMA = "schedbench.catalog/1"
STATS = ("median_ms", "mean_ms", "stddev_ms", "cv", "min_ms", "max_ms")
TIMES = ("median_ms", "mean_ms", "min_ms", "max_ms")  # the STATS that are times
# Point fields copied as they are; a config parameter of one of these names is `config.<name>`.
SCALARS = ("status", "failure", "error", "digest", "gpu", "wall_s", "device_bytes",
           "finished_utc", "l2", "clocks_locked", "clock_lock_refused")
# A GPU point's energy over its timed runs (results/README.md): energy.joules_per_repetition,
# energy.mean_power_w ..., NaN where NVML did not read it.
NESTED = ("counts", "counters", "parts_ms", "energy")
# The interval of the median as the file records it (results/README.md): {column: stats key}.
INTERVAL = {"ci_low_ms": "median_lo_ms", "ci_high_ms": "median_hi_ms",
            "ci_level": "interval_level"}
RESERVED = {"source", "job", "label", "index", "noisy", "repetitions", "repetitions_ms",
            *INTERVAL, *STATS, *SCALARS}


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
    p.strings("label", "status", "failure", "error", "digest", "finished_utc", "l2",
              "clock_lock_refused")
    config = p.object("config", required=True)
    for key in config.doc:
        config.get(key, is_scalar, "a string, a number, true, false or null")
    config.strings("sim", "scheduler")
    p.get("index", lambda v: is_count(v, 0), "a whole number from 0")
    p.get("ranks", lambda v: is_count(v, 1), "a whole number from 1")
    for key in ("noisy", "clocks_locked"):
        p.get(key, lambda v: isinstance(v, bool), "true or false")
    for key in ("counts", "counters", "parts_ms", "stats", "energy"):
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


def check_run(path, doc):
    """`doc`, read from `path`, where it is a run record whose every value the package reads is
    as results/README.md's schema schedbench.run/1 says; InputError naming the first that is
    not."""
    top = Fields(path, "", doc)
    config = top.object("config", required=True)
    for key in config.doc:
        config.get(key, is_scalar, "a string, a number, true, false or null")
    config.strings("sim", "scheduler")
    job = top.object("job")
    if job is not None:
        job.get("name", is_job_name, NAME_RULE)
        job.strings("file", "point")
    top.strings("error")
    if "error" not in doc:
        result = top.object("result", required=True)
        result.get("time_ms", positive, "a time above 0", required=True)
        result.strings("digest")
        for key in ("counts", "parts_ms"):
            result.numbers(key)
    check_environment(top)
    return doc


CHECKS = {JOB_SCHEMA: check_results, RUN_SCHEMA: check_run}
ACCEPTED = f"a file of schema {JOB_SCHEMA} or {RUN_SCHEMA}"


def read_job(path):
    """The job results file at `path`, checked (check_results); InputError where it is not one."""
    return check_results(path, read_json(path, f"a file of schema {JOB_SCHEMA}"))


def read_document(path):
    """The job results file or run record at `path`, checked; InputError where it is neither."""
    doc = read_json(path, ACCEPTED)
    if schema_of(doc) not in CHECKS:
        raise InputError(f"{path}: not a job's results or a run record; accepted: {ACCEPTED}")
    return CHECKS[schema_of(doc)](path, doc)


def schema_of(doc):
    """A parsed document's schema (a string), or None."""
    schema = doc.get("schema") if isinstance(doc, dict) else None
    return schema if isinstance(schema, str) else None


def is_job_results(doc):
    """Whether a parsed document is a job's results (schema schedbench.job/1)."""
    return schema_of(doc) == JOB_SCHEMA


def documents(folder, schemas):
    """[(path, checked document)] of the files in `folder` of the `schemas`, by name: its *.json
    of those schemas. Other files are skipped (catalog.json, Google Benchmark files, logs), and
    so is anything that is not a regular file: a directory, a FIFO or a dangling link named
    *.json. A file of one of the schemas that breaks it is an InputError, and so is a second
    results file of one job (one_file_per_job)."""
    if not os.path.isdir(folder):
        raise InputError(f"{folder} is not a folder; accepted: a folder of job results files "
                         f"(schema {JOB_SCHEMA})")
    found = []
    for p in sorted(pathlib.Path(folder).glob("*.json")):
        doc = parse_json(read_text(p)) if is_regular_file(p) else None
        if schema_of(doc) in schemas:
            found.append((p, CHECKS[schema_of(doc)](p, doc)))
    return one_file_per_job(found)


def one_file_per_job(found):
    """`found`, where no two of its job results files are of one job; InputError naming both
    where two are: the readers and the report take one sweep of a job per folder."""
    first = {}
    for path, doc in found:
        if is_job_results(doc):
            name = doc["job"]["name"]
            if name in first:
                raise InputError(f"{path}: a second results file of job {name} (the first: "
                                 f"{first[name]}); accepted: one results file per job in a "
                                 "folder (`schedbench merge` joins shards; keep another sweep "
                                 "of the job in a folder of its own)")
            first[name] = path
    return found


def job_documents(folder):
    """[(path, checked document)] of the results files of jobs in `folder`, by name (documents);
    run records are skipped."""
    return documents(folder, {JOB_SCHEMA})


def job_files(folder):
    """The results files of jobs in `folder`, by name (job_documents)."""
    return [path for path, _ in job_documents(folder)]


def point_row(source, job_name, point):
    """One point of the file `source` as a flat {column: value}."""
    row = {"source": str(source), "job": job_name, "label": point.get("label"),
           "index": point.get("index")}
    for key, v in (point.get("config") or {}).items():
        row[f"config.{key}" if key in RESERVED else key] = v
    row.update({key: point.get(key) for key in SCALARS})
    row["noisy"] = point.get("noisy", False)
    stats, reps = point.get("stats") or {}, point.get("repetitions_ms") or []
    row.update({key: stats.get(key) for key in STATS})
    row.update({column: stats.get(key) for column, key in INTERVAL.items()})
    row.update(repetitions=len(reps), repetitions_ms=reps)
    for group in NESTED:
        row.update({f"{group}.{k}": v for k, v in (point.get(group) or {}).items()})
    return row


def run_point(doc):
    """A checked run record as a point of a results file: its one time as the one repetition,
    its rates (the result's other numbers) as counters."""
    result, job = doc.get("result") or {}, doc.get("job") or {}
    point = {"label": job.get("point"), "config": doc["config"],
             "status": "failed" if "error" in doc else "ok", "error": doc.get("error"),
             "digest": result.get("digest"), "device_bytes": result.get("device_bytes"),
             "counts": result.get("counts"), "parts_ms": result.get("parts_ms"),
             "counters": {k: v for k, v in result.items()
                          if is_number(v) and k not in ("time_ms", "device_bytes")}}
    if "time_ms" in result:
        t = result["time_ms"]
        point.update(repetitions_ms=[t],
                     stats={"median_ms": t, "mean_ms": t, "min_ms": t, "max_ms": t})
    return point


def document_rows(source, doc):
    """The rows of a checked results document or run record read from `source`."""
    if is_job_results(doc):
        return [point_row(source, doc["job"]["name"], p) for p in doc["points"]]
    return [point_row(source, (doc.get("job") or {}).get("name"), run_point(doc))]


def read_results(path):
    """The results file or run record at `path` as a DataFrame, one row per point; InputError
    (a ValueError, schedbench_results.errors) for anything but a job's results file or a run
    record as its schema says."""
    return pd.DataFrame(document_rows(path, read_document(path)))


def read_folder(folder):
    """Every job's results and run record in `folder` as one DataFrame (columns `source` and
    `job` tell them apart); InputError where the folder holds none, one breaks its schema, or
    two results files are of one job (one_file_per_job)."""
    found = documents(folder, set(CHECKS))
    if not found:
        raise InputError(f"{folder}: no results files of schema {JOB_SCHEMA} or {RUN_SCHEMA}")
    return pd.DataFrame([row for path, doc in found for row in document_rows(path, doc)])


CATALOG_LISTS = {"schedulers": ("name", "kind"), "parameters": ("key", "label", "role"),
                 "sims": ("name",)}


def read_catalog_document(path):
    """catalog.json as `schedbench list --json` writes it, checked (check_catalog)."""
    return check_catalog(path, read_json(path, f"`schedbench list --json` (schema "
                                               f"{CATALOG_SCHEMA})"))


def tool_path():
    """The schedbench whose own catalog serves results without a catalog.json: $SCHEDBENCH,
    else the checkout's build/bin/schedbench (where the plot scripts find it), else schedbench
    on PATH."""
    if os.environ.get("SCHEDBENCH"):
        return os.environ["SCHEDBENCH"]
    built = pathlib.Path(__file__).resolve().parents[2] / "build" / "bin" / "schedbench"
    return str(built) if is_regular_file(built) else "schedbench"


TOOL_TIMEOUT_S = 60  # `schedbench list --json` prints what the binary declares: well under a second


def tool_catalog(missing):
    """The catalog `schedbench list --json` prints (tool_path), checked (check_catalog), for
    results whose catalog.json, `missing`, is not there; InputError where the tool cannot give
    it."""
    tool = tool_path()
    accepted = (f"accepted: a catalog.json beside the results (`schedbench list --json > "
                f"{missing}`), or SCHEDBENCH naming a schedbench binary")
    try:
        done = subprocess.run([tool, "list", "--json"], capture_output=True, text=True,
                              timeout=TOOL_TIMEOUT_S, check=False)
    except (OSError, ValueError, subprocess.SubprocessError) as e:
        raise InputError(f"{missing}: missing, and `{tool} list --json` did not run "
                         f"({getattr(e, 'strerror', None) or e}); {accepted}") from e
    if done.returncode != 0:
        raise InputError(f"{missing}: missing, and `{tool} list --json` exited "
                         f"{done.returncode}; {accepted}")
    return check_catalog(f"`{tool} list --json`", parse_json(done.stdout))


def check_catalog(source, doc):
    """A catalog as `schedbench list --json` writes it, read from `source`, checked: each of
    CATALOG_LISTS a list of objects with those fields, strings; InputError where it is not."""
    if not isinstance(doc, dict) or doc.get("schema") != CATALOG_SCHEMA:
        raise InputError(f"{source}: not a catalog; accepted: `schedbench list --json` (schema "
                         f"{CATALOG_SCHEMA})")
    top = Fields(source, "", doc)
    for key, fields in CATALOG_LISTS.items():
        entries = top.get(key, lambda v: isinstance(v, list), "a list", required=True)
        for i, entry in enumerate(entries):
            e = Fields(source, f"{key}[{i}]", entry)
            for field in fields:
                e.get(field, lambda v: isinstance(v, str), "a string", required=True)
    return doc


def read_catalog(path):
    """catalog.json (`schedbench list --json`) as {"schedulers", "parameters", "sims"}: a
    DataFrame each, a row per entry in the catalog's order; InputError where it is none."""
    doc = read_catalog_document(path)
    return {key: pd.DataFrame(doc[key]) for key in CATALOG_LISTS}
