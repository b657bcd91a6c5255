"""sim air against the two-term Boltzmann solver bolos on the same LXCat file: the solver's
side, runs of `schedbench run --sim air`, and the estimates (with standard errors) that
plot/test_air_bolos.py asserts and plot/validate_air.py tabulates.

Both sides describe a swarm in a uniform field whose number grows or decays exponentially in
time (bolos's growth term, the run's free population): mean energy, flux drift velocity (mean
velocity), and the Townsend coefficients alpha/N and eta/N as rate coefficients over the drift
speed. bolos has no bulk drift, so its alpha/N is k_ion / w_flux; ours is the run's process
rate over the same flux drift (docs/physics.md says why not the bulk one here)."""

import copy
import json
import math
import pathlib
import subprocess
import tempfile

import numpy as np
import scipy.constants as co
from bolos import grid, parser, solver

ROOT = pathlib.Path(__file__).resolve().parent.parent
CROSS_SECTIONS = ROOT / "data" / "lxcat-siglo.txt"
SCHEDBENCH = ROOT / "build" / "bin" / "schedbench"
TEMPERATURE = 300.0  # K
PRESSURE = 1e5  # Pa: 1 bar
DENSITY = PRESSURE / (co.k * TEMPERATURE)  # m^-3
AIR = {"N2": 0.8, "O2": 0.2}


def gas_arg(gas):
    """{"N2": 0.8, "O2": 0.2} as --gas wants it."""
    return ",".join(f"{s}:{x}" for s, x in gas.items())


def load_processes(path=CROSS_SECTIONS):
    """bolos's parse of the file, with cross sections marked TIMES_N: CM3 (O2's three-body
    attachment) multiplied by the gas density in cm^-3 as sim air does: bolos knows no such
    mark."""
    with open(path) as fp:
        processes = parser.parse(fp)
    for p in processes:
        if "TIMES_N: CM3" in p["comment"]:
            data = np.array(p["data"])
            data[:, 1] *= DENSITY * 1e-6
            p["data"] = data.tolist()
    return processes


def bolos_point(gas, reduced_field, processes=None, top=None, cells=400):
    """bolos's steady state at E/N = reduced_field Td: mean energy (eV), flux drift velocity
    (m/s), alpha/N and eta/N (m^2). The energy grid reaches `top` eV (default scaled with the
    field so that the distribution's tail fits)."""
    top = top or max(60.0, 0.5 * reduced_field)
    s = solver.BoltzmannSolver(grid.QuadraticGrid(0.0, top, cells))
    s.load_collisions(copy.deepcopy(processes or load_processes()))
    for name, target in s.target.items():
        target.density = gas.get(name, 0.0)
    s.kT = TEMPERATURE * co.k / co.eV
    s.EN = reduced_field * solver.TOWNSEND
    s.init()
    f = s.converge(s.maxwell(2.0), maxn=200, rtol=1e-5)
    drift = s.mobility(f) * s.EN

    def coefficient(kind):
        rate = sum(s.rate(f, p, weighted=True) for _, p in s.iter_inelastic() if p.kind == kind)
        return rate / drift

    return {"mean_energy_eV": s.mean_energy(f), "flux_drift_m_per_s": drift,
            "alpha_N_m2": coefficient("IONIZATION"), "eta_N_m2": coefficient("ATTACHMENT")}


def run_air(gas, reduced_field, init_n, phases, phase_time, max_energy, cross_sections=None,
            scheduler="cpu-openmp"):
    """`schedbench run --sim air ... --json`: the result's per-phase observables."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "run.json"
        subprocess.run([str(SCHEDBENCH), "run", "--sim", "air", "--scheduler", scheduler,
                        "--init-n", str(init_n), "--gas", gas_arg(gas),
                        "--reduced-field", str(reduced_field), "--phases", str(phases),
                        "--phase-time", str(phase_time), "--max-energy", str(max_energy),
                        "--extrapolate", "constant", "--json", str(out)]
                       + (["--cross-section", str(cross_sections)] if cross_sections else []),
                       check=True, stdout=subprocess.DEVNULL)
        result = json.loads(out.read_text())
    return result["result"]["observables"]


def electron_time(start, end, phase_time):
    """Electron-seconds spent in a phase that began with `start` and ended with `end` electrons,
    growing exponentially between them (as sim air counts its rates)."""
    if start == end:
        return phase_time * start
    if start > 0 and end > 0:
        return phase_time * (end - start) / math.log(end / start)
    return phase_time * (start + end) / 2


def estimate(phases, init_n, phase_time, skip):
    """The swarm's quantities over the phases after the first `skip` (relaxation), as
    (value, standard error): mean energy and flux drift averaged over the phase ends, weighted
    by electrons, with the error from their scatter between phases; alpha/N and eta/N as events
    over electron-seconds, over the flux drift and N, with Poisson errors added to the drift's
    in quadrature; alpha/N and eta/N over the bulk drift (the mean of the phases') and, as
    `*_flux`, over the flux drift."""
    counts = [init_n] + [p["electrons"] for p in phases]
    used = range(skip, len(phases))
    weights = np.array([phases[k]["electrons"] for k in used], dtype=float)

    def mean_and_error(name):
        x = np.array([phases[k][name] for k in used])
        mean = np.average(x, weights=weights)
        spread = np.sqrt(np.average((x - mean) ** 2, weights=weights))
        return mean, spread / math.sqrt(len(x) - 1)

    energy = mean_and_error("mean_energy_eV")
    drift = mean_and_error("flux_drift_m_per_s")
    bulk = np.array([phases[k]["bulk_drift_m_per_s"] for k in used])
    bulk = bulk.mean(), bulk.std(ddof=1) / math.sqrt(len(bulk))
    seconds = sum(electron_time(counts[k], counts[k + 1], phase_time) for k in used)

    def coefficient(name, speed):
        events = sum(phases[k][name] for k in used)
        value = events / seconds / speed[0] / DENSITY
        relative = math.hypot(1 / math.sqrt(max(events, 1)), speed[1] / speed[0])
        return value, value * relative

    return {"mean_energy_eV": energy, "flux_drift_m_per_s": drift, "bulk_drift_m_per_s": bulk,
            "alpha_N_m2": coefficient("ionizations", bulk),
            "eta_N_m2": coefficient("attachments", bulk),
            "alpha_N_flux_m2": coefficient("ionizations", drift),
            "eta_N_flux_m2": coefficient("attachments", drift),
            "ionizations": int(sum(phases[k]["ionizations"] for k in used)),
            "attachments": int(sum(phases[k]["attachments"] for k in used)),
            "final_electrons": counts[-1]}


def net_rate(phases, init_n, phase_time, skip):
    """(ionizations - attachments) per electron-second over the phases after `skip`, and its
    Poisson standard error: its zero is the critical field, whatever the drift velocity."""
    counts = [init_n] + [p["electrons"] for p in phases]
    used = range(skip, len(phases))
    seconds = sum(electron_time(counts[k], counts[k + 1], phase_time) for k in used)
    ions = sum(phases[k]["ionizations"] for k in used)
    attached = sum(phases[k]["attachments"] for k in used)
    return (ions - attached) / seconds, math.sqrt(ions + attached) / seconds


def root(fields, values):
    """Where the quadratic (three points or more) or line (two) through (fields, values) crosses
    zero inside the fields' range."""
    coefficients = np.polyfit(fields, values, min(2, len(fields) - 1))
    roots = [r.real for r in np.roots(coefficients)
             if abs(r.imag) < 1e-9 and min(fields) <= r.real <= max(fields)]
    if len(roots) != 1:
        raise ValueError(f"no single crossing of zero between {min(fields)} and {max(fields)} Td")
    return roots[0]


def bolos_critical_field(gas, low=80.0, high=200.0, processes=None):
    """bolos's E/N (Td) where alpha/N = eta/N, by bisection to 0.01 Td."""
    processes = processes or load_processes()

    def net(td):
        p = bolos_point(gas, td, processes)
        return p["alpha_N_m2"] - p["eta_N_m2"]

    lo_net = net(low)
    while high - low > 0.01:
        mid = 0.5 * (low + high)
        if (net(mid) > 0) == (lo_net > 0):
            low = mid
        else:
            high = mid
    return 0.5 * (low + high)


def vibrations_scaled(out, factor, path=CROSS_SECTIONS):
    """Writes `path` to `out` with N2's vibrational excitations (products N2(v...)) multiplied
    by `factor`, or left out where it is 0: the checks that sim air's and bolos's mean energies
    at 100 Td part through those cross sections alone, and by how much as they grow."""
    lines = pathlib.Path(path).read_text().splitlines(keepends=True)
    kept, k = [], 0
    while k < len(lines):
        if lines[k].strip() == "EXCITATION" and lines[k + 1].startswith("N2 -> N2(v"):
            block, dashes = [], 0
            while dashes < 2:
                block.append(lines[k])
                dashes += lines[k].startswith("-----")
                if dashes == 1 and not lines[k].startswith("-----"):
                    energy, sigma = lines[k].split()[:2]
                    block[-1] = f" {energy}\t{float(sigma) * factor:.6e}\n"
                k += 1
            kept += block if factor else []
            continue
        kept.append(lines[k])
        k += 1
    pathlib.Path(out).write_text("".join(kept))


def without_vibrations(out, path=CROSS_SECTIONS):
    """`path` less N2's vibrational excitations, written to `out`."""
    vibrations_scaled(out, 0.0, path)
