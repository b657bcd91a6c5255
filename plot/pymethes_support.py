"""One run of pyMETHES 0.2 (Chachereau et al., ETH Zurich: a Python successor of Rabie and
Franck's METHES; PyPI `pyMETHES`), an independent Monte Carlo swarm code that reads LXCat files,
reduced to the quantities swarm codes report. Shared by plot/pymethes_n2.py (N2 against sim
air) and plot/pymethes_benchmarks.py (the benchmark model gases of data/swarm/).

pyMETHES 0.2 needs pandas below 2 and cannot share .venv, so it has a venv of its own:

    python3 -m venv .venv-pymethes
    .venv-pymethes/bin/pip install pyMETHES==0.2.0 "pandas<2" "numpy<2"
"""

import contextlib
import io
import math
import tempfile
import warnings

import numpy as np

BLOCKS = 8


def blocked(t, x, start):
    """Mean of x over t >= t[start] and its standard error from BLOCKS equal spans of time."""
    edges = np.linspace(t[start], t[-1], BLOCKS + 1)
    means = np.array([x[(t >= lo) & (t < hi)].mean() for lo, hi in zip(edges[:-1], edges[1:])])
    return float(means.mean()), float(means.std(ddof=1) / math.sqrt(BLOCKS))


def one_trial_frequency(mc, factor=1.0):
    """A replacement for pyMETHES's MonteCarlo.determine_timestep. pyMETHES picks each step's
    trial frequency from the fastest electron and the step's own random length, then tests the
    collisions that end the previous flight (drawn with the previous step's frequency) with
    it. The null-collision method is exact when a flight's end is tested with the frequency
    that drew it; one frequency for the whole run, the table's largest (padded by 1 %, as
    pyMETHES pads its own) times `factor`, makes that so. All of pyMETHES's electrons share
    each step's flight time, so its swarm's energy fluctuates as one; a `factor` above 1 makes
    the steps shorter and those fluctuations smaller (docs/physics.md, "The bulk drift at high
    E/N")."""

    def determine_timestep(max_velocity, max_acceleration):
        # The table of largest frequencies exists once the run has read the gas.
        mc.trial_coll_freq = factor * 1.01 * float(np.max(mc.max_coll_freq.y))
        return -math.log(1.0 - np.random.random()) / mc.trial_coll_freq

    return determine_timestep


def uniform_sharing(sim):
    """Has pyMETHES share the energy left after each ionization uniformly (the new electron's
    fraction drawn on [0, 1], as sim air's --ionization-sharing uniform) instead of in its one
    configured ratio. Its collisions give the scattered electron `factor` of that energy and the
    new one the rest, elementwise over the step's ionizations; so before each step's collisions
    this sets `factor` to one uniform draw per ionization of the step (the collisions it has
    chosen, less the null ones and the attachments, which it removes first)."""
    mc, gas = sim.mc, sim.gas_mixture
    perform = mc.perform_collisions

    def perform_collisions(gas_mixture, position, velocity, energy):
        chosen = mc.collision_by_electron
        real = chosen[chosen < gas.number_of_cross_sections]
        kept = real[np.logical_not(gas.is_attachment[real])]
        ionizations = int(np.count_nonzero(gas.is_ionization[kept]))
        mc.config.energy_sharing_factor = np.random.random(ionizations)
        return perform(gas_mixture, position, velocity, energy)

    mc.perform_collisions = perform_collisions


def flux_only_at_the_end(sim):
    """pyMETHES recomputes its flux averages over the whole series after every relaxed step, for
    an end condition these runs do not use: a cost that grows as the square of a run's steps
    (as does its copying of the series at every step, which stays). This leaves them to the end
    of the run, which computes them once more anyway (the same values)."""
    flux = sim.output.flux
    update, finish = flux.calculate_data, sim.calculate_final_output

    def calculate_final_output():
        flux.calculate_data = update
        finish()

    flux.calculate_data = lambda series: None
    sim.calculate_final_output = calculate_final_output


def pymethes_run(gas_file, species, field_td, electrons, collisions, seed, trial,
                 max_energy_ev, relaxed_from=None, trial_factor=1.0, sharing="equal"):
    """One pyMETHES run of `species` from `gas_file` at `field_td` (isotropic scattering, the
    energy left after an ionization shared `sharing`: "equal" or "uniform" (uniform_sharing),
    the population held constant by random removal or duplication, the gas at rest; cross
    sections taken as constant past `max_energy_ev`) and its reductions: the mean energy and
    flux drift over the relaxed steps (blocked means), its own bulk drift (a least-squares line
    through the centre of mass from its energy relaxation on) and the centre's advance over that
    span, its flux and bulk N D (longitudinal: along the field; transverse: the mean of the two
    across it) and its ionization rate coefficient. `trial` "pymethes" keeps its own trial
    frequency, chosen anew at each step; "fixed" gives it one for the whole run
    (one_trial_frequency), `trial_factor` times the table's largest. pyMETHES takes the swarm
    as relaxed once its mean energy over the last tenth of the run is not above that over the
    tenth before, which noise can grant while the energy still creeps up; `relaxed_from` (a
    fraction of the run) moves the start of every average to that time where it is later."""
    from pyMETHES import Simulation

    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        # Its reading of a file warns of mass ratios it would compute otherwise (N2's 1.95e-5
        # against its 1.958e-5; a model gas's name is no formula) and of pandas deprecations:
        # none changes a result.
        warnings.simplefilter("ignore")
        sim = Simulation({
            "input_gases": {"paths_to_cross_section_files": [str(gas_file)],
                            "gases": [species], "fractions": [1.0],
                            "max_cross_section_energy": float(max_energy_ev)},
            "output": {"output_directory": tmp + "/", "base_name": "run",
                       "save_simulation_pickle": False, "save_temporal_evolution": False,
                       "save_swarm_parameters": False, "save_energy_distribution": False},
            # The temperature sets the gas density only (pyMETHES's molecules are at rest);
            # every reported coefficient is reduced by it.
            "physical_conditions": {"EN": field_td, "pressure": 1e5, "temperature": 300},
            "initial_state": {"num_e_initial": electrons, "initial_pos_electrons": [0, 0, 0],
                              "initial_std_electrons": [0, 0, 0]},
            "simulation_settings": {"num_energy_bins": 100, "energy_sharing_factor": 0.5,
                                    "isotropic_scattering": True, "conserve": True,
                                    "num_e_max": electrons, "seed": seed},
            "end_conditions": {"end_condition_type": "num_col_max", "w_tol": 1e-9,
                               "DN_tol": 1e-9, "num_col_max": collisions},
        })
        if trial == "fixed":
            sim.mc.determine_timestep = one_trial_frequency(sim.mc, trial_factor)
        if sharing == "uniform":
            uniform_sharing(sim)
        flux_only_at_the_end(sim)
        with contextlib.redirect_stdout(io.StringIO()):
            sim.run()
    ts = sim.output.time_series
    t = ts.time
    if relaxed_from is not None:
        ts.ind_equ = max(ts.ind_equ or 0, int(np.searchsorted(t, relaxed_from * t[-1])))
        sim.output.flux.calculate_data(ts)
        sim.output.bulk.calculate_data(ts)
    start = ts.ind_equ
    z = ts.mean_position[:, 2]
    dts = np.diff(t)
    flux, bulk = sim.output.flux, sim.output.bulk
    return {
        "seed": seed, "steps": int(t.size), "end_s": float(t[-1]), "relaxed_s": float(t[start]),
        "mean_energy_eV": blocked(t, ts.mean_energy, start),
        "flux_drift_m_per_s": blocked(t, ts.mean_velocity[:, 2], start),
        "bulk_drift_fit_m_per_s": float(bulk.w[2]),
        "bulk_drift_span_m_per_s": float((z[-1] - z[start]) / (t[-1] - t[start])),
        "flux_ND_L_per_m_s": float(flux.DN[2]),
        "flux_ND_T_per_m_s": float(0.5 * (flux.DN[0] + flux.DN[1])),
        "bulk_ND_L_per_m_s": float(bulk.DN[2]),
        "bulk_ND_T_per_m_s": float(0.5 * (bulk.DN[0] + bulk.DN[1])),
        # Its swarm is held at `electrons` after every step, so the ionizations over the span
        # per electron, second and molecule (pyMETHES's own counted rate leaves out the electrons).
        "ionization_rate_coefficient_m3_per_s": float(
            (ts.num_cations[-1] - ts.num_cations[start])
            / (electrons * (t[-1] - t[start]) * sim.config.gas_number_density)),
        "longest_step_s": float(dts.max()), "mean_step_s": float(dts.mean()),
    }


def combine(values):
    """Mean over seeds and its standard error from their scatter."""
    v = np.array(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size))


def show(value):
    """A (mean, error) pair for a progress line."""
    return f"{value[0]:.5g} ± {value[1]:.2g}"
