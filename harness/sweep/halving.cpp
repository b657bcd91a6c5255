#include "harness/sweep/halving.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

namespace sb {
namespace {

constexpr double kLikelyP = 0.95;  // P(fastest) from which a winner is "likely" the fastest

// Best first: a later round beats an earlier one (it survived more halvings), then the median.
bool better(const CandidateOutcome& a, const CandidateOutcome& b) {
  if (a.round != b.round) return a.round > b.round;
  return a.spread.median < b.spread.median;
}

// What one round leaves: the faster half (rounded up) of `alive` by median.
std::vector<size_t> faster_half(std::vector<size_t> alive,
                                const std::vector<CandidateOutcome>& outcomes) {
  std::stable_sort(alive.begin(), alive.end(), [&](size_t a, size_t b) {
    return outcomes[a].spread.median < outcomes[b].spread.median;
  });
  alive.resize((alive.size() + 1) / 2);
  return alive;
}

// The last two after halving, re-measured with `repetitions` (doubling) and their times pooled,
// while the budget allows both and they are within noise; then ranked again by median. With
// `room`, a round starts only where the time of one more measurement as long as the winner's
// would be left after it, and its measurements may not use that time.
void settle(HalvingResult& result, int repetitions, const MeasureFn& measure,
            const std::function<double()>& remaining, const std::vector<double>& wall_s, bool room,
            const NoteFn& note) {
  double wall = wall_s[result.ranking[0].index] + wall_s[result.ranking[1].index];
  // The winner's next measurement is about as long as the pair's last one (twice the
  // repetitions, one candidate).
  const auto kept = [&] { return room ? wall : 0.0; };
  const auto usable = [&] { return remaining() - kept(); };
  // Past this many repetitions a candidate's median is as sure as a run-to-run drift lets it be.
  constexpr int kMostRepetitions = 1000;
  while (result.verdict.kind == Verdict::Kind::kWithinNoise && 2 * wall < usable() &&
         repetitions <= kMostRepetitions) {
    if (note) {
      note(fmt::format("settling the last two, within noise so far: {} repetitions each",
                       repetitions));
    }
    for (CandidateOutcome* c : {&result.ranking[0], &result.ranking[1]}) {
      Measurement m = measure(c->index, repetitions, usable());
      if (m.status != Measurement::Status::kOk) return;  // out of time, or a late failure
      c->times_ms.insert(c->times_ms.end(), m.times_ms.begin(), m.times_ms.end());
      c->spread = spread_of(c->times_ms);
    }
    if (result.ranking[1].spread.median < result.ranking[0].spread.median)
      std::swap(result.ranking[0], result.ranking[1]);
    result.verdict = compare(result.ranking[0].times_ms, result.ranking[1].times_ms);
    wall *= 2;
    repetitions *= 2;
  }
}

// The candidate ranked below `first` with the lowest median under first's that has fewer
// repetitions than first and has not been measured again; null: none.
CandidateOutcome* challenger(std::vector<CandidateOutcome>& ranking,
                             const std::set<size_t>& measured_again) {
  const CandidateOutcome& first = ranking.front();
  CandidateOutcome* best = nullptr;
  for (auto it = ranking.begin() + 1; it != ranking.end(); ++it) {
    if (it->spread.median < first.spread.median && it->times_ms.size() < first.times_ms.size() &&
        measured_again.count(it->index) == 0 && (!best || it->spread.median < best->spread.median))
      best = &*it;
  }
  return best;
}

}  // namespace

void follow_medians(HalvingResult& result, const MeasureFn& measure,
                    const std::function<double()>& remaining, const NoteFn& note) {
  std::set<size_t> measured_again;
  while (result.ranking.size() >= 2) {
    std::stable_sort(result.ranking.begin(), result.ranking.end(), better);
    CandidateOutcome* c = challenger(result.ranking, measured_again);
    if (!c || remaining() <= 0) break;
    const CandidateOutcome& first = result.ranking.front();
    const int repetitions = static_cast<int>(first.times_ms.size() - c->times_ms.size());
    if (note) {
      note(
          fmt::format("measuring candidate {} again ({} repetitions): its median {:.4g} ms is "
                      "below the first's {:.4g} ms, from fewer repetitions",
                      c->index, repetitions, c->spread.median, first.spread.median));
    }
    measured_again.insert(c->index);
    Measurement m = measure(c->index, repetitions, remaining());
    if (m.status == Measurement::Status::kOutOfTime) {
      result.budget_spent = true;
      break;
    }
    if (m.status != Measurement::Status::kOk || m.times_ms.empty()) {
      c->error = m.status == Measurement::Status::kFailed ? m.error : "no times";
      result.failed.push_back(*c);
      result.ranking.erase(result.ranking.begin() + (c - result.ranking.data()));
      continue;
    }
    c->times_ms.insert(c->times_ms.end(), m.times_ms.begin(), m.times_ms.end());
    c->spread = spread_of(c->times_ms);
    c->round = first.round;  // measured as far as the first
  }
  // Where the budget ran out before every challenger was measured again, its median ranks it.
  std::stable_sort(result.ranking.begin(), result.ranking.end(),
                   [](const CandidateOutcome& a, const CandidateOutcome& b) {
                     return a.spread.median < b.spread.median;
                   });
  if (result.ranking.size() >= 2)
    result.verdict = compare(result.ranking[0].times_ms, result.ranking[1].times_ms);
}

Verdict compare(const std::vector<double>& winner, const std::vector<double>& runner_up) {
  std::mt19937 rng(kBootstrapSeed);
  std::vector<double> winner_sorted = winner, runner_up_sorted = runner_up;
  std::sort(winner_sorted.begin(), winner_sorted.end());
  std::sort(runner_up_sorted.begin(), runner_up_sorted.end());
  double wins = 0;
  for (int k = 0; k < kResamples; ++k) {
    const double w = median_of_resample(winner_sorted, rng);
    const double r = median_of_resample(runner_up_sorted, rng);
    wins += w < r ? 1 : (w == r ? 0.5 : 0);
  }
  Verdict v;
  v.p_fastest = wins / kResamples;
  const Spread w = spread_of(winner), r = spread_of(runner_up);
  if (w.max < r.min) {
    v.kind = Verdict::Kind::kSeparated;
    v.text = "separated: every repetition of the winner beat every repetition of the runner-up";
  } else if (v.p_fastest >= kLikelyP) {
    v.kind = Verdict::Kind::kLikely;
    v.text = fmt::format(
        "likely fastest: the ranges overlap, but the winner's median is the lower in {:.0f}% of "
        "bootstrap resamples",
        100 * v.p_fastest);
  } else {
    v.kind = Verdict::Kind::kWithinNoise;
    v.text = fmt::format(
        "within noise: the winner's median is the lower in only {:.0f}% of bootstrap resamples; "
        "the winner and the runner-up are not told apart, either will do",
        100 * v.p_fastest);
  }
  return v;
}

HalvingResult with_screening(HalvingResult h, const ScreenResult& s) {
  for (CandidateOutcome& c : h.ranking)
    c.index = s.leaders[c.index];
  for (CandidateOutcome& c : h.failed)
    c.index = s.leaders[c.index];
  const auto screening_of = [&s](size_t k) {
    return std::find_if(s.screened.begin(), s.screened.end(),
                        [k](const CandidateOutcome& c) { return c.index == k; });
  };
  // A leader the halving's budget did not reach competes with its screening, as the others do.
  std::vector<size_t> unmeasured;
  for (const size_t leader : h.unmeasured) {
    const size_t k = s.leaders[leader];
    const auto it = screening_of(k);
    if (it != s.screened.end()) {
      h.ranking.push_back(*it);
    } else {
      unmeasured.push_back(k);
    }
  }
  h.unmeasured = std::move(unmeasured);
  for (const CandidateOutcome& c : s.screened) {
    if (std::count(s.leaders.begin(), s.leaders.end(), c.index) == 0) h.ranking.push_back(c);
  }
  const auto screened_only = std::stable_partition(
      h.ranking.begin(), h.ranking.end(), [](const CandidateOutcome& c) { return c.round > 0; });
  std::stable_sort(screened_only, h.ranking.end(),
                   [](const CandidateOutcome& a, const CandidateOutcome& b) {
                     return a.spread.median < b.spread.median;
                   });
  h.failed.insert(h.failed.end(), s.failed.begin(), s.failed.end());
  h.unmeasured.insert(h.unmeasured.end(), s.unmeasured.begin(), s.unmeasured.end());
  h.budget_spent = h.budget_spent || s.budget_spent;
  h.spent_s += s.spent_s;
  // Without two that the halving measured: the verdict on the first two of the ranking.
  if (h.ranking.size() >= 2 && h.verdict.kind == Verdict::Kind::kAlone)
    h.verdict = compare(h.ranking[0].times_ms, h.ranking[1].times_ms);
  return h;
}

HalvingResult successive_halving(size_t candidates, const HalvingOptions& o,
                                 const MeasureFn& measure, const ClockFn& clock,
                                 const NoteFn& note) {
  const double start = clock();
  const auto remaining = [&] { return o.budget_s - (clock() - start); };
  HalvingResult result;
  std::vector<CandidateOutcome> outcomes(candidates);
  std::vector<double> wall_s(candidates, 0);  // each one's latest measurement's clock seconds
  std::vector<bool> failed(candidates, false);
  std::vector<size_t> alive;
  for (size_t k = 0; k < candidates; ++k) {
    outcomes[k].index = k;
    alive.push_back(k);
  }
  int repetitions = o.first_repetitions;
  while (!alive.empty()) {
    ++result.rounds;
    if (note) {
      note(fmt::format("round {}: {} candidate{}, {} repetitions each ({:.1f} of {:.1f} s spent)",
                       result.rounds, alive.size(), alive.size() == 1 ? "" : "s", repetitions,
                       clock() - start, o.budget_s));
    }
    std::vector<size_t> measured;
    for (const size_t k : alive) {
      // A candidate measured before takes about twice its last time with twice the
      // repetitions: one that would not finish within the budget is not started.
      if (remaining() <= 0 || (outcomes[k].round > 0 && 2 * wall_s[k] > remaining())) {
        result.budget_spent = true;
        break;
      }
      const double before = clock();
      Measurement m = measure(k, repetitions, remaining());
      wall_s[k] = clock() - before;
      if (m.status == Measurement::Status::kOutOfTime) {
        result.budget_spent = true;
        break;
      }
      if (m.status == Measurement::Status::kFailed || m.times_ms.empty()) {
        failed[k] = true;
        outcomes[k].error = m.status == Measurement::Status::kFailed ? m.error : "no times";
        result.failed.push_back(outcomes[k]);
        continue;
      }
      outcomes[k].times_ms = std::move(m.times_ms);
      outcomes[k].spread = spread_of(outcomes[k].times_ms);
      measured.push_back(k);
    }
    // A round cut short by the budget still counts for those it reached: a candidate not
    // measured again competes with its last measurement.
    for (const size_t k : alive) {
      if (!failed[k] && (outcomes[k].round > 0 || !outcomes[k].times_ms.empty()))
        outcomes[k].round = result.rounds;
    }
    alive.erase(std::remove_if(alive.begin(), alive.end(), [&](size_t k) { return failed[k]; }),
                alive.end());
    if (result.budget_spent || alive.size() <= 1) break;
    alive = faster_half(alive, outcomes);
    if (alive.size() == 1) break;
    repetitions *= 2;
  }
  for (const CandidateOutcome& c : outcomes) {
    if (failed[c.index]) continue;
    if (c.round == 0) {
      result.unmeasured.push_back(c.index);
    } else {
      result.ranking.push_back(c);
    }
  }
  std::stable_sort(result.ranking.begin(), result.ranking.end(), better);
  if (result.ranking.size() >= 2) {
    result.verdict = compare(result.ranking[0].times_ms, result.ranking[1].times_ms);
    if (o.settle && !result.budget_spent)
      settle(result, repetitions * 2, measure, remaining, wall_s, o.room_after_settling, note);
    follow_medians(result, measure, remaining, note);
  } else {
    result.verdict.text = "alone: no other candidate was measured to compare it with";
  }
  result.spent_s = clock() - start;
  return result;
}

ScreenResult screen(size_t candidates, const ScreenOptions& o, const ScreenFn& measure,
                    const ClockFn& clock, const NoteFn& note) {
  const double start = clock();
  ScreenResult result;
  result.stop_factor = o.stop_factor;
  double best_ms = 0;  // the fastest timed run so far
  for (size_t k = 0; k < candidates; ++k) {
    const double remaining = o.budget_s - (clock() - start);
    if (remaining <= 0) {
      result.budget_spent = true;
      for (size_t rest = k; rest < candidates; ++rest)
        result.unmeasured.push_back(rest);
      break;
    }
    Measurement m = measure(k, best_ms > 0 ? o.stop_factor * best_ms : 0, remaining);
    CandidateOutcome c;
    c.index = k;
    c.round = 0;
    c.error = m.error;
    // One slow run (a hiccup of the machine) does not drop a candidate: a second look must be
    // as slow.
    if (m.status == Measurement::Status::kStopped) {
      if (note) note(fmt::format("candidate {}: {}; looking once more", k, m.error));
      m = measure(k, o.stop_factor * best_ms, o.budget_s - (clock() - start));
      c.error = m.error;
    }
    if (m.status == Measurement::Status::kOutOfTime) {
      result.budget_spent = true;
      for (size_t rest = k; rest < candidates; ++rest)
        result.unmeasured.push_back(rest);
      break;
    }
    if (m.status == Measurement::Status::kStopped) {
      result.stopped.push_back(c);
    } else if (m.status == Measurement::Status::kFailed || m.times_ms.empty()) {
      if (c.error.empty()) c.error = "no times";
      result.failed.push_back(c);
    } else {
      c.times_ms = std::move(m.times_ms);
      c.spread = spread_of(c.times_ms);
      best_ms = best_ms > 0 ? std::min(best_ms, c.spread.min) : c.spread.min;
      result.screened.push_back(std::move(c));
    }
  }
  std::stable_sort(result.screened.begin(), result.screened.end(),
                   [](const CandidateOutcome& a, const CandidateOutcome& b) {
                     return a.spread.median < b.spread.median;
                   });
  for (const CandidateOutcome& c : result.screened) {
    if (result.leaders.size() < o.max_leaders &&
        c.spread.median <= o.leader_factor * result.screened.front().spread.median)
      result.leaders.push_back(c.index);
  }
  result.spent_s = clock() - start;
  if (note) {
    note(
        fmt::format("screened {} of {} candidates in {:.1f} s: {} stopped at {}x the best so far, "
                    "{} failed; {} leader(s) within {}x of the best",
                    result.screened.size() + result.stopped.size() + result.failed.size(),
                    candidates, result.spent_s, result.stopped.size(), o.stop_factor,
                    result.failed.size(), result.leaders.size(), o.leader_factor));
  }
  return result;
}

}  // namespace sb
