"""Writes the model gases of data/swarm/ (README.md there defines them) as LXCat files that
sim air reads: one file per gas, its species named as the file.

    python3 data/swarm/make_gases.py            # rewrite the files
    python3 data/swarm/make_gases.py --check    # exit 1 if a file differs from what it writes

Cross sections are tabulated for air's linear interpolation: a constant or a linear ramp is
exact with its end points; a cross section proportional to eps^-1/2 gets 100 points per decade
of energy (relative interpolation error below 5e-5) from 1e-5 eV, so that every row of air's
collision table (0.5 meV apart at most) lies inside the table. Every table ends at TOP_EV: air
keeps a cross section's last value beyond its last point, which would flatten a ramp, so the
run's --max-energy (benchmarks.json gives one per case) must not exceed it.
"""

import argparse
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
TOP_EV = 1000.0
ANGSTROM2 = 1e-20  # m^2
ELECTRON_MASS_U = 5.48579909065e-4  # CODATA 2018, electron mass in unified atomic mass units
LOWEST_EV = 1e-5
POINTS_PER_DECADE = 100


def number(x):
    """x as the file writes it: 10 significant digits, plain decimal exponent."""
    return f"{x:.9e}"


def inverse_root_energies():
    """Energies (eV) from LOWEST_EV to TOP_EV, POINTS_PER_DECADE per decade."""
    decades = math.log10(TOP_EV / LOWEST_EV)
    n = round(decades * POINTS_PER_DECADE)
    return [LOWEST_EV * 10 ** (decades * k / n) for k in range(n + 1)]


def table(rows):
    lines = ["-----------------------------"]
    lines += [f"{number(e)}\t{number(s)}" for e, s in rows]
    lines.append("-----------------------------")
    return lines


def elastic(species, mass_ratio, rows, comment):
    return (["ELASTIC", species, f"{number(mass_ratio)}   / mass ratio m/M", f"COMMENT: {comment}"]
            + table(rows) + [""])


def inelastic(kind, species, threshold, rows, comment):
    return [kind, f"{species} -> {species}*" if kind == "EXCITATION" else species,
            f"{number(threshold)}   / threshold, eV", f"COMMENT: {comment}"] + table(rows) + [""]


def attachment(species, rows, comment):
    return ["ATTACHMENT", species, f"COMMENT: {comment}"] + table(rows) + [""]


def ramp(threshold, slope_a2_per_ev):
    """slope (eps - threshold) Angstrom^2 above the threshold: exact with two points."""
    return [(threshold, 0.0), (TOP_EV, slope_a2_per_ev * (TOP_EV - threshold) * ANGSTROM2)]


def constant(sigma_a2):
    return [(0.0, sigma_a2 * ANGSTROM2), (TOP_EV, sigma_a2 * ANGSTROM2)]


def inverse_root(coefficient_a2):
    """coefficient * eps^-1/2 Angstrom^2 (eps in eV): a constant collision frequency."""
    return [(e, coefficient_a2 * ANGSTROM2 / math.sqrt(e)) for e in inverse_root_energies()]


def power_law(coefficient_a2, power):
    """coefficient * eps^power Angstrom^2 (eps in eV) on the grid of inverse_root, whose
    relative interpolation error for a power p is about p (p - 1) / 8 (ln 10 / 100)^2: below
    1.4e-4 for p = -1."""
    return [(e, coefficient_a2 * ANGSTROM2 * e ** power) for e in inverse_root_energies()]


def header(title, lines):
    """Free text before the first block, which air skips, and a separator line."""
    return [title, ""] + lines + ["", "x" * 56, ""]


def comment_block(species, lines):
    return ["COMMENT", species] + lines + ["-----------------------------", ""]


def reid_ramp():
    s = "reid-ramp"
    m = ELECTRON_MASS_U / 4.0
    about = ["Reid's ramp model gas: I. D. Reid, Aust. J. Phys. 32, 231 (1979).",
             "Elastic 6 A^2 (isotropic), one excitation 10 (eps - 0.2) A^2 above 0.2 eV,",
             "molecular mass 4 u, gas at rest (0 K). Written by data/swarm/make_gases.py;",
             f"tables end at {TOP_EV:g} eV (use --max-energy, data/swarm/README.md)."]
    return (header("Model gas reid-ramp for sim air (schedbench).", about)
            + comment_block(s, about)
            + elastic(s, m, constant(6.0), "Reid (1979): sigma_m = 6 A^2, isotropic")
            + inelastic("EXCITATION", s, 0.2, ramp(0.2, 10.0),
                        "Reid (1979): sigma = 10 (eps - 0.2) A^2 for eps >= 0.2 eV"))


def lucas_saelee_about(f):
    return ["Lucas-Saelee ionization model: J. Lucas and H. T. Saelee, J. Phys. D 8, 640",
             "(1975). Elastic 4 eps^-1/2 A^2 (isotropic, constant collision frequency),",
             f"excitation 0.1 (1 - F) (eps - 15.6) A^2 and ionization 0.1 F (eps - 15.6) A^2",
             f"above 15.6 eV, here F = {f:g}; mass ratio m/M = 1e-3; gas at rest (0 K).",
             "The benchmark shares the energy left after an ionization uniformly",
             "(--ionization-sharing uniform). Written by data/swarm/make_gases.py; tables end",
             f"at {TOP_EV:g} eV (use --max-energy, data/swarm/README.md)."]


def lucas_saelee(f, name, about=None):
    s = name
    about = about or lucas_saelee_about(f)
    out = (header(f"Model gas {s} for sim air (schedbench).", about) + comment_block(s, about)
           + elastic(s, 1e-3, inverse_root(4.0), "Lucas and Saelee (1975): 4 eps^-1/2 A^2"))
    if f < 1:
        out += inelastic("EXCITATION", s, 15.6, ramp(15.6, 0.1 * (1 - f)),
                         f"Lucas and Saelee (1975): 0.1 (1 - F) (eps - 15.6) A^2, F = {f:g}")
    if f > 0:
        out += inelastic("IONIZATION", s, 15.6, ramp(15.6, 0.1 * f),
                         f"Lucas and Saelee (1975): 0.1 F (eps - 15.6) A^2, F = {f:g}")
    return out


def lucas_saelee_attachment(a, p, name):
    """Lucas-Saelee F = 0 with the attachment a eps^p A^2 of Ness and Robson (1986), one of the
    three variants of the LoKI-MC benchmark document's Table 2 (data/swarm/README.md)."""
    about = lucas_saelee_about(0.0) + [
        f"With Ness and Robson's attachment a eps^p A^2, a = {a:g}, p = {p:g} (K. F. Ness and",
        "R. E. Robson, Phys. Rev. A 34, 2185 (1986)), as in Table 2 of the LoKI-MC benchmark",
        "document (Dias et al. 2022)."]
    return (lucas_saelee(0.0, name, about)
            + attachment(name, power_law(a, p),
                         f"Ness and Robson (1986): a eps^p A^2, a = {a:g}, p = {p:g}"))


def maxwell():
    s = "maxwell"
    m = ELECTRON_MASS_U / 4.0
    about = ["Maxwell model gas: elastic 6 eps^-1/2 A^2 (isotropic), so a constant collision",
             "frequency N 6 A^2 sqrt(2 e / m_e) at every energy; molecular mass 4 u; elastic",
             "only. Its drift velocity, mean energy and diffusion coefficients are analytic",
             "(data/swarm/README.md). Written by data/swarm/make_gases.py; tables end at",
             f"{TOP_EV:g} eV (use --max-energy, data/swarm/README.md)."]
    return (header("Model gas maxwell for sim air (schedbench).", about) + comment_block(s, about)
            + elastic(s, m, inverse_root(6.0), "Maxwell model: 6 eps^-1/2 A^2"))


def maxwell_light():
    s = "maxwell-light"
    about = ["Light Maxwell model gas: the Maxwell model's elastic 6 eps^-1/2 A^2 (isotropic,",
             "constant collision frequency) with mass ratio m/M = 0.01, so that the energy",
             "relaxes within about 50 collisions and the anisotropy of diffusion, a few per",
             "cent, shows. Elastic only; its transport is analytic (data/swarm/README.md).",
             f"Written by data/swarm/make_gases.py; tables end at {TOP_EV:g} eV."]
    return (header(f"Model gas {s} for sim air (schedbench).", about) + comment_block(s, about)
            + elastic(s, 0.01, inverse_root(6.0), "6 eps^-1/2 A^2, m/M = 0.01"))


NESS_ROBSON_A = 1e-2  # A^2 eV^1/2: the attachment coefficient of the p = -1/2 variant here


def ness_robson_p_half():
    s = "ness-robson-p-0.5"
    m = ELECTRON_MASS_U / 16.0
    about = ["Ness-Robson attachment model, variant p = -1/2: K. F. Ness and R. E. Robson,",
             "Phys. Rev. A 34, 2185 (1986). Elastic 10 eps^-1/2 A^2 (isotropic), attachment",
             f"a eps^p A^2 with p = -1/2 and a = {NESS_ROBSON_A:g} A^2 eV^1/2, molecular mass",
             "16 u. Both collision frequencies are constant, so attachment removes electrons",
             "regardless of their velocity: the transport is the Maxwell model's (analytic) and",
             "the attachment rate coefficient is a sqrt(2 e / m_e). Written by",
             f"data/swarm/make_gases.py; tables end at {TOP_EV:g} eV."]
    return (header(f"Model gas {s} for sim air (schedbench).", about) + comment_block(s, about)
            + elastic(s, m, inverse_root(10.0), "Ness and Robson (1986): 10 eps^-1/2 A^2")
            + attachment(s, inverse_root(NESS_ROBSON_A),
                         f"Ness and Robson (1986) form a eps^p, p = -1/2, a = {NESS_ROBSON_A:g}"
                         " A^2 eV^1/2"))


GASES = {
    "reid-ramp": reid_ramp,
    "lucas-saelee-f0": lambda: lucas_saelee(0.0, "lucas-saelee-f0"),
    "lucas-saelee-f0.5": lambda: lucas_saelee(0.5, "lucas-saelee-f0.5"),
    "lucas-saelee-f1": lambda: lucas_saelee(1.0, "lucas-saelee-f1"),
    "lucas-saelee-f0-att-a5e-4-p0.5":
        lambda: lucas_saelee_attachment(5e-4, 0.5, "lucas-saelee-f0-att-a5e-4-p0.5"),
    "lucas-saelee-f0-att-a2e-3-p-0.5":
        lambda: lucas_saelee_attachment(2e-3, -0.5, "lucas-saelee-f0-att-a2e-3-p-0.5"),
    "lucas-saelee-f0-att-a8e-3-p-1":
        lambda: lucas_saelee_attachment(8e-3, -1.0, "lucas-saelee-f0-att-a8e-3-p-1"),
    "maxwell": maxwell,
    "maxwell-light": maxwell_light,
    "ness-robson-p-0.5": ness_robson_p_half,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the files with what this script writes; write nothing")
    args = parser.parse_args()
    stale = []
    for name, make in GASES.items():
        path = HERE / f"{name}.txt"
        text = "\n".join(make()) + "\n"
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    if stale:
        sys.exit(f"make_gases: differ from what the script writes: {', '.join(stale)}")


if __name__ == "__main__":
    main()
