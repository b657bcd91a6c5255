"""The field module's kernels as docs/physics.md shows them ("The field module's kernels,
measured"): deposition, atomic against sorted, by grid and cloud; the Poisson solve, cuFFT against
FFTW; the field and its gather. Prints Markdown tables of the medians, in ms.

Reads the results file that `bench_fields jobs/fields-kernels.json --out FILE` writes (schema
schedbench.job/1, results/README.md); a failed or missing point shows as "-"."""

import argparse
import json
import math

SUPERSCRIPT_3 = "\u00b3"


def load(path):
    """{(kernel, grid, boundary or cloud): median ms} of the ok points, the particles deposited,
    and a line naming the device and commit. Exits on a file bench_fields did not write."""
    with open(path) as f:
        doc = json.load(f)
    if doc.get("schema") != "schedbench.job/1" or \
            doc["job"]["spec"].get("program") != "bench_fields":
        raise SystemExit(f"fields_tables: {path}: not a results file of bench_fields "
                         "(schema schedbench.job/1, a job with \"program\": \"bench_fields\")")
    medians, particles = {}, set()
    for p in doc["points"]:
        if p.get("status") != "ok":
            continue
        c = p["config"]
        medians[(c["kernel"], c["grid"], c.get("boundary") or c.get("cloud"))] = \
            p["stats"]["median_ms"]
        if c["kernel"].startswith("deposit"):
            particles.add(c["particles"])
    device = (doc["environment"].get("device") or {}).get("name", "no device")
    commit = doc["environment"]["build"]["git_commit"][:12]
    return medians, particles, f"{doc['job']['name']} on {device}, commit {commit}; medians, ms"


def significant(v, digits=3):
    """`digits` significant digits (more left of the point), without an exponent; "-" for None."""
    if v is None:
        return "-"
    return f"{v:.{max(0, digits - 1 - math.floor(math.log10(abs(v))))}f}" if v else "0"


def grids(medians, kernels):
    return sorted({g for (k, g, _) in medians if k in kernels})


def deposit_table(medians, particles):
    out = ["| grid | particles per cell (uniform) | atomic, uniform | sorted, uniform | "
           "atomic, clustered | sorted, clustered |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    per_cell = particles.pop() if len(particles) == 1 else None
    for g in grids(medians, ("deposit-atomic", "deposit-sorted")):
        cells = [significant(medians.get((f"deposit-{v}", g, cloud)))
                 for cloud in ("uniform", "clustered") for v in ("atomic", "sorted")]
        density = significant(None if per_cell is None else per_cell / g ** 3)
        out.append(f"| {g}{SUPERSCRIPT_3} | {density} | " + " | ".join(cells) + " |")
    return out


def solve_table(medians):
    out = ["| grid | boundary | cuFFT | FFTW | FFTW / cuFFT |", "| --- | --- | ---: | ---: | ---: |"]
    for g in grids(medians, ("solve-cufft", "solve-fftw")):
        for b in ("periodic", "open"):
            gpu, cpu = medians.get(("solve-cufft", g, b)), medians.get(("solve-fftw", g, b))
            if gpu is None and cpu is None:
                continue
            ratio = f"{cpu / gpu:.0f}" if gpu and cpu else "-"
            out.append(f"| {g}{SUPERSCRIPT_3} | {b} | {significant(gpu)} | {significant(cpu)} | {ratio} |")
    return out


def field_table(medians):
    out = ["| grid | field | gather |", "| --- | ---: | ---: |"]
    for g in grids(medians, ("field", "gather")):
        field = medians.get(("field", g, None))
        gather = medians.get(("gather", g, "uniform"))
        out.append(f"| {g}{SUPERSCRIPT_3} | {significant(field)} | {significant(gather)} |")
    return out


def markdown(path):
    medians, particles, caption = load(path)
    return "\n".join([caption, "", "Deposition:", ""] + deposit_table(medians, particles) +
                     ["", "Poisson solves:", ""] + solve_table(medians) +
                     ["", "Field and gather:", ""] + field_table(medians))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", help="bench_fields' results file")
    print(markdown(parser.parse_args().file))


if __name__ == "__main__":
    main()
