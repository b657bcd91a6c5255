// One phase's standard errors of the swarm's bulk quantities, its growth and its flux diffusion,
// from the sums the phase already has (docs/physics.md, "The errors of one phase").
#pragma once

namespace sb::air {

// What the errors are estimated from: one phase's counts, spreads and paths. Spreads are the
// swarm's variances about its centre, the mean of the phase's two ends.
struct PhaseSpread {
  double phase_time = 0;                 // s
  double n_start = 0, n_end = 0;         // electrons alive at the phase's start and end
  double events = 0;                     // ionizations and attachments in the phase
  double spread_z = 0, spread_r = 0;     // along z; across (x and y together), m^2
  double advance_z = 0;                  // sum over paths of (advance - flux drift x time)^2, m^2
  double path_time = 0, path_time2 = 0;  // sums over paths of their times and squares (phases)
  double centre_x = 0, centre_y = 0, centre_z = 0;  // the centre's advance in the phase, m
  double flux_advance = 0;                          // the flux drift times the phase's length, m
  double flux_dt = 0;                               // the flux transverse diffusion, m^2/s
};

// One standard error of each, in its own units (m/s, 1/s, m^2/s); NaN with fewer than two
// electrons at the end or no path.
struct PhaseErrors {
  double bulk_drift = 0, growth = 0, bulk_dl = 0, bulk_dt = 0, flux_dl = 0, flux_dt = 0;
};

PhaseErrors phase_errors(const PhaseSpread& s);

// The error of `value`, alpha/N or eta/N: a rate from `count` events over the bulk drift `bulk`
// (error `bulk_error`), `events` the phase's ionizations and attachments and `flux` its flux
// drift; NaN without an event.
double rate_over_drift_error(double value, double count, double events, double bulk, double flux,
                             double bulk_error);

}  // namespace sb::air
