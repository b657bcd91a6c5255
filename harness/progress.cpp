#include "harness/progress.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

namespace sb {

std::string format_duration(double seconds) {
  const auto s = static_cast<long>(std::lround(seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

Progress::Progress(size_t total, size_t done, size_t slots, double estimate_s, bool terminal)
    : total_(total), done_(done), slots_(slots), estimate_s_(estimate_s), terminal_(terminal) {
  if (done_ > 0)
    fmt::print("{} of {} points already finished; running the other {}\n", done_, total_,
               total_ - done_);
  std::fflush(stdout);
}

// From the points finished by this process; before the first, from the job's estimate.
std::string Progress::eta() const {
  const size_t left = total_ - done_;
  if (left == 0) return "0s";
  if (done_here_ == 0) {
    return estimate_s_ > 0 ? "~" + format_duration(estimate_s_ * static_cast<double>(left) /
                                                   static_cast<double>(total_ * slots_))
                           : "?";
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return format_duration(elapsed / static_cast<double>(done_here_) * static_cast<double>(left));
}

void Progress::started(const std::string& label) {
  running_ = label;
  if (terminal_) draw();
}

void Progress::finished(const std::string& label, const std::string& outcome) {
  ++done_;
  ++done_here_;
  clear();
  fmt::print("[{}/{}] {}  {}  (ETA {})\n", done_, total_, label, outcome, eta());
  if (terminal_) draw();
  std::fflush(stdout);
}

void Progress::clear() {
  if (terminal_) fmt::print("\r\033[K");
}

void Progress::draw() {
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * done_ / (total_ == 0 ? 1 : total_));
  fmt::print("\r\033[K[{}{}] {}/{} ETA {}  {}", std::string(static_cast<size_t>(filled), '#'),
             std::string(static_cast<size_t>(kWidth - filled), '.'), done_, total_, eta(),
             running_);
  std::fflush(stdout);
}

}  // namespace sb
