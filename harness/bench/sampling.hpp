// The stopping rule of a point's measurement (Sampling, harness/job/job_form.hpp): how many
// timed runs are enough, and whether what they measured is noisy.
#pragma once

#include <vector>

#include "harness/job/job_form.hpp"

namespace sb {

// Whether `times_ms` (every repetition so far), timed in `wall_s` seconds of wall time, is enough
// by `s`: `repetitions` of them where that is set; otherwise at least min_samples and min_time_s,
// and then either the median's interval within max_noise_pct of it or max_time_s spent. The time
// limits count wall time, what a repetition costs besides its timed part included (a run's
// setup, the timing layer's own work), so that a point of short runs stops when its user expects
// (docs/performance.md, "How a point is measured").
bool enough_samples(const Sampling& s, const std::vector<double>& times_ms, double wall_s);

// How many repetitions to time next, after `runs` of them took `wall_s` seconds and were not
// enough: half as many again, more where min_time_s is short by more at this rate, and no more
// than fill half of what is left of max_time_s at this rate (at least one).
int next_batch(const Sampling& s, int runs, double wall_s);

// Whether the measurement is noisy by `s`: its noise (statistics.hpp) above max_noise_pct.
bool noisy(const Sampling& s, const std::vector<double>& times_ms);

// The sampling of one of `visits` visits to a point (sweep --interleave): its share of the
// repetitions, the least samples and the times, at least one repetition each; the same noise.
Sampling visit_share(const Sampling& s, int visits, int visit);

// Refuses more visits than a fixed count of repetitions (`s.repetitions`) can be shared among:
// each visit runs at least one, so the point would record more runs than asked. Throws
// UsageError.
void check_visits(const Sampling& s, int visits);

}  // namespace sb
