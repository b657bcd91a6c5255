#include "harness/cli/run_progress.hpp"

#include <fmt/format.h>

#include <string>

#include "harness/sweep/progress.hpp"

namespace sb {

RunProgress::RunProgress(uint32_t phases, double every_s, Clock::time_point start,
                         std::FILE* out)
    : phases_(phases), every_s_(every_s), start_(start), last_(start), out_(out) {}

void RunProgress::at(uint32_t done, uint64_t alive, Clock::time_point now) {
  if (std::chrono::duration<double>(now - last_).count() < every_s_) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // The phases left at the rate of those run: a population that grows makes it an underestimate.
  const std::string left =
      done == 0 ? "" : ", about " + format_duration(elapsed / done * (phases_ - done)) + " left";
  fmt::print(out_, "progress: phase {} of {} ({:.1f} %), {} particles, {} so far{}\n", done,
             phases_, 100.0 * done / phases_, alive, format_duration(elapsed), left);
  std::fflush(out_);
}

}  // namespace sb
