// Which of several candidates is fastest, within a time budget, in two stages. Screening gives
// every candidate one short look (a warm-up and a timed run) before any is repeated, and stops a
// run that takes several times the best so far (twice in a row: one slow run does not drop it),
// so that slow candidates cannot eat the budget; the leaders then go through successive halving:
// each measured a few repetitions, the faster half (by median) on to the next round with twice
// the repetitions, until one remains; the rest of the budget re-measures the last two while they
// are within noise, and any candidate whose median beats the winner's from fewer repetitions, so
// that the ranking follows the medians it prints. Pure: the measuring and the
// clock are injected, so that tests drive it with fake times (`schedbench recommend` measures in
// a point process: harness/sweep/recommend.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "harness/bench/statistics.hpp"

namespace sb {

struct Measurement {
  enum class Status {
    kOk,         // times_ms holds each repetition's time
    kFailed,     // the candidate cannot run (a crash, an error): dropped, `error` says why
    kOutOfTime,  // stopped at the deadline it was given: the budget is spent
    kStopped,    // screening: a run went past the limit it was given, `error` says where
  };
  Status status = Status::kOk;
  std::vector<double> times_ms;
  std::string error;
};

// Measures candidate `index` with `repetitions` timed runs, taking at most `deadline_s`
// seconds of the clock.
using MeasureFn = std::function<Measurement(size_t index, int repetitions, double deadline_s)>;
// Seconds since any fixed moment.
using ClockFn = std::function<double()>;
// A progress line (without a line break).
using NoteFn = std::function<void(const std::string&)>;

struct HalvingOptions {
  double budget_s = 60;
  int first_repetitions = 3;
  // Once one candidate remains, re-measure it and the runner-up with twice the repetitions (their
  // times pooled) while the budget allows and they are within noise.
  bool settle = true;
  // Settling leaves room for one more measurement as long as the winner's last (recommend's
  // yardstick on the winner's configuration).
  bool room_after_settling = false;
};

struct CandidateOutcome {
  size_t index = 0;
  int round = 0;                 // the last round it took part in (0: never measured)
  std::vector<double> times_ms;  // its latest finished measurement
  Spread spread;                 // of times_ms
  std::string error;             // a dropped candidate's failure
};

// How sure the ranking is that its first is the fastest, against the runner-up.
struct Verdict {
  enum class Kind {
    kAlone,        // only one candidate was measured
    kSeparated,    // the winner's slowest repetition beats the runner-up's fastest
    kLikely,       // ranges overlap but the winner's median is lower in >= 95% of resamples
    kWithinNoise,  // otherwise: the two are not told apart
  };
  Kind kind = Kind::kAlone;
  double p_fastest = 1;  // bootstrap probability that the winner's median is the lower
  std::string text;      // one line for the user
};

struct HalvingResult {
  std::vector<CandidateOutcome> ranking;  // measured, best first: by median (follow_medians)
  std::vector<CandidateOutcome> failed;   // dropped, in the order they failed
  std::vector<size_t> unmeasured;         // never measured: the budget ran out first
  int rounds = 0;                         // rounds started
  bool budget_spent = false;              // stopped by the budget, not by one remaining
  double spent_s = 0;                     // clock seconds used
  Verdict verdict;
};

HalvingResult successive_halving(size_t candidates, const HalvingOptions& options,
                                 const MeasureFn& measure, const ClockFn& clock,
                                 const NoteFn& note = {});

// Makes `result`'s ranking follow the medians it reports. A candidate ranked below the first
// whose median is the lower, from fewer repetitions, is measured again up to the first's count
// (its times pooled, its round the first's) while `remaining` seconds allow, the lowest such
// median first; then the ranking is ordered by median alone (a candidate the budget left
// unmeasured again is ranked by what it has), and the verdict is on the new first two.
void follow_medians(HalvingResult& result, const MeasureFn& measure,
                    const std::function<double()>& remaining, const NoteFn& note = {});

// Measures candidate `index` with a warm-up and one timed run, each stopped once it passes
// `stop_after_ms` (0: never), taking at most `deadline_s` seconds of the clock.
using ScreenFn = std::function<Measurement(size_t index, double stop_after_ms, double deadline_s)>;

struct ScreenOptions {
  double budget_s = 60;
  double stop_factor = 4;      // a run past this many times the best run so far is stopped
  double leader_factor = 1.3;  // a leader's run is within this many times the best
  size_t max_leaders = 16;     // the fastest that many at most
};

struct ScreenResult {
  std::vector<CandidateOutcome> screened;  // measured, best first
  std::vector<CandidateOutcome> stopped;   // slower than the limit: `error` says what it was
  std::vector<CandidateOutcome> failed;    // could not run: `error` says why
  std::vector<size_t> unmeasured;          // the budget ran out first
  std::vector<size_t> leaders;             // the fastest of `screened`, best first
  double stop_factor = 0;                  // the options'
  double spent_s = 0;
  bool budget_spent = false;
};

// Screens candidates 0..candidates-1 in order.
ScreenResult screen(size_t candidates, const ScreenOptions& options, const ScreenFn& measure,
                    const ClockFn& clock, const NoteFn& note = {});

// A halving over the screening's leaders (`h`, indexed 0..leaders-1) in the candidates' indices,
// joined with the screening: the candidates measured by the screening alone (those that were not
// leaders, and leaders the halving's budget did not reach) ranked after those the halving measured,
// by their screening's median; the screening's failures and unmeasured candidates added.
HalvingResult with_screening(HalvingResult h, const ScreenResult& s);

// The verdict on `winner` against `runner_up` (their repetition times).
Verdict compare(const std::vector<double>& winner, const std::vector<double>& runner_up);

}  // namespace sb
