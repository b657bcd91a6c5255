#include "sims/air/phase_errors.hpp"

#include <algorithm>
#include <cmath>

namespace sb::air {

// Given the swarm at the phase's start, the electrons' paths are taken as independent, each
// advance Gaussian with a variance in proportion to the path's time (along z as measured, across
// 2 D_T t per axis), the start offsets uncorrelated with the advances, and the ionizations and
// attachments as independent events at offsets spread like the swarm's. docs/physics.md derives
// each variance below; the CPU tests compare them with the scatter of relaxed phases.
PhaseErrors phase_errors(const PhaseSpread& s) {
  const double t = s.phase_time, n = s.n_end, paths = s.path_time, paths2 = s.path_time2;
  if (!(n > 1 && paths > 0)) return {NAN, NAN, NAN, NAN, NAN, NAN};
  const double vz = s.advance_z / paths;  // a whole phase's z advance: variance, m^2
  const double vr = 2 * s.flux_dt * t;    // and an x or y advance's
  const double sx = 0.5 * s.spread_r;     // x's or y's spread
  const double cz2 = s.centre_z * s.centre_z,
               cr2 = s.centre_x * s.centre_x + s.centre_y * s.centre_y;
  const double e = s.events;
  // The events' mean offset (signed: ahead for an ionization, behind for an attachment), at
  // least what moves the centre beyond the flux drift's advance: that shift (times n) squared,
  // less its own statistical variance (e spreads), over e^2.
  const double shift = (s.centre_z - s.flux_advance) * n;
  const double d2 = e > 0 ? std::max(0.0, shift * shift - e * s.spread_z) / (e * e) : 0;
  PhaseErrors r;
  // The centre: the paths' advances, and each birth or death moving it by its offset over n.
  r.bulk_drift = std::sqrt(s.advance_z + e * (s.spread_z + d2)) / (n * t);
  r.growth = s.n_start > 0 ? std::sqrt(e / (s.n_start * n)) / t : NAN;
  // The spread: an electron at offset u advancing a - <a> adds 2 u (a - <a>) + (a - <a>)^2 to
  // the sum of squares; a birth or death adds or takes u^2, of variance 2 spread^2 (Gaussian).
  r.bulk_dl = std::sqrt(4 * s.spread_z * s.advance_z + 2 * vz * vz * paths2 +
                        e * (2 * s.spread_z * s.spread_z + 4 * d2 * s.spread_z + d2 * d2)) /
              (2 * n * t);
  r.bulk_dt =
      std::sqrt(2 * (4 * sx * vr * paths + 2 * vr * vr * paths2) + e * s.spread_r * s.spread_r) /
      (4 * n * t);
  // The flux: a path's integral of (z - c) v_z about its mean varies by its offset times its
  // advance's spread, by the drift's share of the integral of its own wandering (a third of the
  // centre's advance squared times its variance), and by half its variance squared; a birth or
  // death adds or takes a path's mean, its offset times the centre's advance over its time.
  r.flux_dl = std::sqrt(vz * (s.spread_z * paths + cz2 * paths2 / 3) + 0.5 * vz * vz * paths2 +
                        e * s.spread_z * cz2 / 3) /
              (t * paths);
  r.flux_dt = 0.5 *
              std::sqrt(vr * (s.spread_r * paths + cr2 * paths2 / 3) + vr * vr * paths2 +
                        e * sx * cr2 / 3) /
              (t * paths);
  return r;
}

// An ionization ahead of the centre (or an attachment behind it) raises the count and the bulk
// drift together: their logarithms' covariance is taken as the events' mean shift of the centre
// over the bulk advance, (W* - W) / (events W*), and the ratio's variance is at least that of
// the count and the drift moving in step.
double rate_over_drift_error(double value, double count, double events, double bulk, double flux,
                             double bulk_error) {
  if (!(count > 0)) return NAN;
  const double drift = bulk_error / std::fabs(bulk), counted = 1 / std::sqrt(count);
  const double together = events > 0 ? (bulk - flux) / (events * bulk) : 0;
  const double in_step = (counted - drift) * (counted - drift);
  return std::fabs(value) *
         std::sqrt(std::max(in_step, counted * counted + drift * drift - 2 * together));
}

}  // namespace sb::air
