"""Which jobs a results folder holds and the figures of each: a job's family module where it has
one, else the generic figures; the jobs that one family draws together (its PARTS) as one
figure job."""

import importlib
import pathlib
import pkgutil

from . import families, generic
from .figures import FAMILIES, draw_job, family, load_parts, ok_points, parts
from .frames import job_files, read_document


def job_index(folder):
    """{job name: its results file} of the job results files in `folder`; a second file of one
    job (a shard beside its merge) is named and left out."""
    index = {}
    for path in job_files(folder):
        name = read_document(path)["job"]["name"]
        if name in index:
            print(f"{path}: a second results file of job {name} (after {index[name]}); left out")
        else:
            index[name] = path
    return index


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
            made = (draw_job(figures_for(name), job, out_dir, found[0] if len(found) == 1
                             else name) if ok_points(job) else [])
            drawn.append((job, made))
    return drawn, missing
