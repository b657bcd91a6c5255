"""The tables of docs/physics.md, "Swarm benchmarks", from a results file of
plot/swarm_benchmarks.py: sim air beside every code that data/swarm/benchmarks.json holds a
value of (each published code, our run of pyMETHES, an analytic value), each with its error, its
difference from ours in per cent and in combined standard errors; one table per published table
(Table 1, the Reid ramp; Table 2, Lucas-Saelee; and the cases with other references), and the
count of comparisons within two combined errors. The results are compared again with the
references benchmarks.json holds now (swarm_benchmarks.recompare). Writes the tables into
docs/physics.md between its two marker lines, atomically.

    .venv/bin/python plot/swarm_doc_tables.py results/swarm-benchmarks/full.json
    .venv/bin/python plot/swarm_doc_tables.py results/swarm-benchmarks/full.json --check
"""

import argparse
import json
import math
import pathlib
import sys

import swarm_benchmarks as sb

DOC = sb.ROOT / "docs" / "physics.md"
BEGIN = "<!-- swarm tables: written by plot/swarm_doc_tables.py from a results file -->"
END = "<!-- end of the swarm tables -->"
TWO_ERRORS = 2

# Each quantity's row label and the unit its numbers are printed in (the unit's scale).
ROWS = {
    "mean_energy_eV": ("mean energy (eV)", 1.0),
    "flux_drift_m_per_s": ("flux drift (10⁴ m/s)", 1e4),
    "bulk_drift_m_per_s": ("bulk drift (10⁴ m/s)", 1e4),
    "flux_ND_L_per_m_s": ("flux N·D_L (10²⁴ m⁻¹s⁻¹)", 1e24),
    "bulk_ND_L_per_m_s": ("bulk N·D_L (10²⁴ m⁻¹s⁻¹)", 1e24),
    "flux_ND_T_per_m_s": ("flux N·D_T (10²⁴ m⁻¹s⁻¹)", 1e24),
    "bulk_ND_T_per_m_s": ("bulk N·D_T (10²⁴ m⁻¹s⁻¹)", 1e24),
    "effective_rate_coefficient_m3_per_s": ("ν_eff/N (10⁻¹⁸ m³/s)", 1e-18),
    "ionization_rate_coefficient_m3_per_s": ("k_ion (10⁻¹⁸ m³/s)", 1e-18),
    "attachment_rate_coefficient_m3_per_s": ("k_att (10⁻¹⁷ m³/s)", 1e-17),
    "eta_N_m2": ("η/N (10⁻²⁰ m²)", 1e-20),
}
GROUPS = (("Table 1 (p. 2)", "Table 1 of the LoKI-MC benchmark document, the Reid ramp"),
          ("Table 2 (p. 3)", "Table 2 of the LoKI-MC benchmark document, Lucas–Saelee at 10 Td"),
          (None, "Cases with other references"))


def with_error(value, error, scale):
    """value ± error in units of `scale`, to the error's second significant digit."""
    v = value / scale
    if not (sb.finite(error) and error > 0):
        return f"{v:.5g}"
    e = error / scale
    digits = max(0, 1 - math.floor(math.log10(e)))
    return f"{v:.{digits}f} ± {e:.{digits}f}"


def cell(c, scale):
    text = with_error(c["reference"], c["reference_error"], scale)
    diff = f"{c['difference_percent']:+.2f} %" if "difference_percent" in c else "–"
    sigma = f"{c['difference_sigma']:+.1f}" if c.get("difference_sigma") is not None else "–"
    if not c["compared"]:
        return f"{text} (not compared at this size: {diff})"
    mark = " **outlier**" if c["outlier"] else ""
    return f"{text} ({diff}, {sigma}){mark}"


def table_lines(cases, title):
    """One markdown table: a row per case and quantity, a column per code."""
    codes = []
    for case in cases:
        for c in case["comparisons"]:
            if c["code"] not in codes:
                codes.append(c["code"])
    lines = [f"**{title}.**", "",
             "| case | quantity | sim air | " + " | ".join(codes) + " |",
             "| --- | --- | ---: | " + " | ".join("---:" for _ in codes) + " |"]
    for case in cases:
        first = True
        for q, (label, scale) in ROWS.items():
            refs = {c["code"]: c for c in case["comparisons"] if c["quantity"] == q}
            if not refs:
                continue
            ours = case["ours"].get(q, {})
            mine = with_error(ours["mean"], ours.get("error"), scale) if ours else "–"
            name = case["name"] if first else ""
            first = False
            lines.append(f"| {name} | {label} | {mine} | "
                         + " | ".join(cell(refs[k], scale) if k in refs else "" for k in codes)
                         + " |")
    return lines + [""]


def missing_lines(names, title):
    return [f"**{title}**: not in this results file: {', '.join(names)}.", ""]


def tables(results, benchmarks):
    """The markdown between the markers: the tables and the count."""
    results = sb.recompare(results, benchmarks)
    ran = {c["name"]: c for c in results["cases"]}
    devices = sorted({c.get("environment", {}).get("device", {}).get("name", "no GPU")
                      for c in results["cases"]})
    builds = sorted({c.get("environment", {}).get("build", {}).get("git_commit", "?")[:7]
                     for c in results["cases"]})
    lines = [f"Results file: `{results.get('size')}` size, `{results.get('scheduler')}` on "
             f"{', '.join(devices)}, a build of {', '.join(builds)}; errors one standard error, "
             "blocked over phases. Each code's cell: its value ± its error (difference of ours from it, in per cent "
             "and in combined standard errors); **outlier**: the odd one among the codes "
             "(`data/swarm/README.md`, \"Published values\"), not counted below; \"not "
             "compared at this size\": a quantity the case's run size is too short for "
             "(`data/swarm/benchmarks.json` says why).", ""]
    for key, title in GROUPS:
        names = [c["name"] for c in benchmarks["cases"]
                 if next((r["table"] for r in c["references"] if "table" in r), None) == key]
        cases = [ran[n] for n in names if n in ran]
        if cases:
            lines += table_lines(cases, title)
        if len(cases) < len(names):
            lines += missing_lines([n for n in names if n not in ran], title)
    counted = [c for case in results["cases"] for c in case["comparisons"]
               if c["compared"] and not c["outlier"] and c.get("combined_error") is not None]
    within = [c for c in counted
              if abs(c["ours"] - c["reference"]) <= TWO_ERRORS * c["combined_error"]]
    outside = [f"{case['name']} {c['quantity']} against {c['code']} "
               f"({c['difference_sigma']:+.1f})"
               for case in results["cases"] for c in case["comparisons"]
               if c in counted and c not in within]
    outliers = sum(c["outlier"] and c["compared"] for case in results["cases"]
                   for c in case["comparisons"])
    lines.append(f"Within {TWO_ERRORS} combined errors: {len(within)} of {len(counted)} "
                 f"comparisons (and {outliers} published values marked outliers)"
                 + (f"; outside: {'; '.join(outside)}." if outside else "."))
    return "\n".join(lines)


def rewritten(doc, body):
    """`doc` with `body` between its marker lines; ValueError where it lacks them."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{DOC.relative_to(sb.ROOT)} lacks the marker lines {BEGIN!r} and "
                         f"{END!r}")
    return doc[:start + len(BEGIN)] + "\n\n" + body + "\n\n" + doc[end:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=pathlib.Path, help="plot/swarm_benchmarks.py's JSON")
    parser.add_argument("--benchmarks", type=pathlib.Path, default=sb.BENCHMARKS,
                        help="the cases and references (default data/swarm/benchmarks.json)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/physics.md's tables differ; write nothing")
    args = parser.parse_args()
    try:
        results = json.loads(args.results.read_text())
    except (OSError, ValueError) as e:
        sb.usage_error("swarm_doc_tables", f"{args.results}: not a readable results file ({e}); "
                       "accepted: plot/swarm_benchmarks.py's JSON")
    if results.get("schema") != sb.SCHEMA:
        sb.usage_error("swarm_doc_tables", f"{args.results}: schema {results.get('schema')!r}; "
                       f"accepted: {sb.SCHEMA}")
    doc = DOC.read_text()
    try:
        new = rewritten(doc, tables(results, sb.load_benchmarks(args.benchmarks)))
    except ValueError as e:
        sb.usage_error("swarm_doc_tables", str(e))
    if args.check:
        if new != doc:
            sys.exit(f"swarm_doc_tables: {DOC.relative_to(sb.ROOT)} differs from the tables of "
                     f"{args.results}; run plot/swarm_doc_tables.py {args.results}")
        return
    try:
        sb.write_text_atomically(DOC, new)
    except OSError as e:
        print(f"swarm_doc_tables: cannot write {DOC}: {e}", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    main()
