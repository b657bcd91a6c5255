#include "harness/sweep/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cmath>

namespace sb {

namespace {

double seconds_between(Progress::Clock::time_point from, Progress::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

std::string format_duration(double seconds) {
  const auto s = static_cast<long>(std::lround(seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

Progress::Progress(size_t total, size_t done, size_t slots, double estimate_s, bool terminal,
                   std::FILE* out, double cost_to_run)
    : total_(total),
      done_(done),
      slots_(slots),
      estimate_s_(estimate_s),
      terminal_(terminal),
      out_(out),
      cost_left_(cost_to_run > 0 ? cost_to_run : static_cast<double>(total - done)),
      cost_to_run_(cost_left_) {
  if (done_ > 0)
    line(fmt::format("{} of {} points already finished; running the other {}", done_, total_,
                     total_ - done_));
}

// The cost left at the rate of the points finished by this process (cost per second of the
// sweep's clock, points side by side included); before the first, from the estimate.
std::string Progress::eta() const {
  if (total_ == done_) return "0s";
  if (done_here_ == 0 || cost_done_here_ <= 0) {
    return estimate_s_ > 0 ? "~" + format_duration(estimate_s_ * cost_left_ / cost_to_run_ /
                                                   static_cast<double>(slots_))
                           : "?";
  }
  return format_duration(seconds_between(start_, Clock::now()) / cost_done_here_ * cost_left_);
}

void Progress::started(const std::string& label, double cost) {
  running_.push_back({label, Clock::now(), cost, ""});
  if (terminal_) draw(Clock::now());
}

void Progress::doing(const std::string& label, const std::string& what) {
  for (Running& r : running_) {
    if (r.label == label) r.doing = what;
  }
}

// "label (12s)", or "label (12s, repetition 4)".
std::string Progress::shown(const Running& r, Clock::time_point now) const {
  const std::string elapsed = format_duration(seconds_between(r.since, now));
  return r.doing.empty() ? fmt::format("{} ({})", r.label, elapsed)
                         : fmt::format("{} ({}, {})", r.label, elapsed, r.doing);
}

void Progress::recost(double done, double left, const std::map<std::string, double>& running) {
  cost_done_here_ = done;
  cost_left_ = left;
  for (Running& r : running_) {
    if (const auto it = running.find(r.label); it != running.end()) r.cost = it->second;
  }
}

void Progress::finished(const std::string& label, const std::string& outcome) {
  ++done_;
  ++done_here_;
  const auto it = std::find_if(running_.begin(), running_.end(),
                               [&](const Running& r) { return r.label == label; });
  if (it != running_.end()) {
    cost_done_here_ += it->cost;
    cost_left_ = std::max(0.0, cost_left_ - it->cost);
    running_.erase(it);
  }
  clear();
  line(fmt::format("[{}/{}] {}  {}  (ETA {})", done_, total_, label, outcome, eta()));
  if (terminal_) draw(Clock::now());
}

void Progress::tick(Clock::time_point now) {
  if (terminal_) {
    if (seconds_between(last_draw_, now) >= 1) draw(now);
    return;
  }
  if (running_.empty() || seconds_between(last_line_, now) < kHeartbeatS) return;
  std::string text = "  still running:";
  for (const Running& r : running_)
    text += " " + shown(r, now);
  line(fmt::format("{}; {} of {} points done (ETA {})", text, done_, total_, eta()));
  last_line_ = now;
}

void Progress::line(const std::string& text) {
  fmt::print(out_, "{}\n", text);
  std::fflush(out_);
  last_line_ = Clock::now();
}

void Progress::clear() {
  if (terminal_) fmt::print(out_, "\r\033[K");
}

void Progress::draw(Clock::time_point now) {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done_ / (total_ == 0 ? 1 : total_));
  std::string text =
      fmt::format("[{}{}] {}/{} ETA {}", std::string(static_cast<size_t>(filled), '#'),
                  std::string(static_cast<size_t>(kWidth - filled), '.'), done_, total_, eta());
  if (!running_.empty()) text += "  " + shown(running_.back(), now);
  // One column short of the width, so that the line never wraps and litters the scrollback.
  winsize size{};
  const bool known = ioctl(fileno(out_), TIOCGWINSZ, &size) == 0 && size.ws_col > 1;
  const size_t columns = known ? size.ws_col - 1u : 79u;
  if (text.size() > columns) text.resize(columns);
  fmt::print(out_, "\r\033[K{}", text);
  std::fflush(out_);
  last_draw_ = now;
}

}  // namespace sb
