"""Which jobs a results folder holds and the figures of each: a job's family module where it has
one, else the generic figures; the jobs that one family draws together (its PARTS) as one
figure job."""

import importlib
import pathlib
import pkgutil

from . import families, generic
from .figures import (FAMILIES, family, job_figures, load_parts, ok_points, parts,
                      render_figures)
from .frames import job_documents


def job_index(folder):
    """{job name: its results file} of the job results files in `folder`; InputError naming
    both where two are of one job (frames.one_file_per_job), as read_folder does."""
    return {doc["job"]["name"]: path for path, doc in job_documents(folder)}


def merged_figures():
    """{job: figure job} for the jobs a family module draws together (its PARTS)."""
    found = {}
    for info in pkgutil.iter_modules(families.__path__):
        module = importlib.import_module(f"{FAMILIES}.{info.name}")
        found.update({part: module.JOB for part in getattr(module, "PARTS", ())})
    return found


def figure_jobs(index):
    """The figure jobs of a folder's jobs, in the order of their files; jobs drawn together
    appear once, as the job of their figure."""
    merged = merged_figures()
    return list(dict.fromkeys(merged.get(name, name) for name in index))


def figures_for(name):
    """The function that makes figure job `name`'s Figure records from its results."""
    module = family(name)
    return module.figures if module else generic.figures


def draw_figures(folder, index, names, out_dir):
    """Draws the figures of each figure job in `names` whose results `index` holds into
    OUT_DIR; prints what it writes and which results are missing. Returns
    ([(results, Figure records)] in the order of `names`, [jobs without results])."""
    found, missing = figure_records(folder, index, names)
    for job, made, source in found:
        render_figures(made, out_dir, source)
    return [(job, made) for job, made, _ in found], missing


def figure_records(folder, index, names):
    """The Figure records of each figure job in `names` whose results `index` holds, drawing
    nothing; prints which results are missing. Returns ([(results, Figure records, the file or
    for merged results the job's name they came from)] in the order of `names`, [jobs without
    results])."""
    drawn, missing = [], []
    for name in names:
        found = [index[part] for part in parts(name) if part in index]
        fate = "figures leave it out" if found else "figures are skipped"
        for part in parts(name):
            if part not in index:
                print(f"{pathlib.Path(folder) / f'{part}.json'} is missing; {name}'s {fate}")
                missing.append(part)
        if found:
            job = load_parts(name, found)
            source = found[0] if len(found) == 1 else name
            made = job_figures(figures_for(name), job, source) if ok_points(job) else []
            drawn.append((job, made, source))
    return drawn, missing
