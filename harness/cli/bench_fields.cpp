// bench_fields: measures the field module's kernels as a fields job declares them
// (jobs/fields-kernels.json; jobs/README.md), one point after another in this process, into a
// results file of the sweep's schema (results/README.md, schedbench.job/1).
//
//   bench_fields JOB [--out FILE] [--overwrite]
//
// Exit codes as schedbench's (README, "Exit codes"): 0 every point measured, 2 bad input, 3 no
// CUDA device, a point failed or the results file could not be written, 1 a CUDA error (the
// points before it are in the file).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "harness/bench/fields_kernels.hpp"
#include "harness/cli/cli.hpp"
#include "harness/io/atomic_file.hpp"
#include "harness/io/environment.hpp"
#include "harness/io/output_path.hpp"
#include "harness/job/fields_job.hpp"
#include "harness/job/job_results.hpp"
#include "harness/sweep/fields_sweep.hpp"

namespace sb {
namespace {

struct Args {
  std::string job_path, out_path;
  bool overwrite = false;
};

int bench_fields(const Args& a) {
  const FieldsJob job = load_fields_job(a.job_path);
  const nlohmann::json environment = environment_json();
  const std::string out = a.out_path.empty() ? default_results_path(job, environment) : a.out_path;
  check_output_file("--out", out, !a.overwrite);
  if (!cuda_device_present())
    throw RunError("bench_fields needs a CUDA device and none is present");
  fmt::print(stderr, "{}: {} points, about {:.0f} s on one H100; results in {}\n", job.name,
             job.points.size(), job.estimated_s, out);
  const size_t failed = run_fields_job(job, out, environment, measure_fields_point, stderr);
  fmt::print(stderr, "wrote {} ({} of {} points ok)\n", out, job.points.size() - failed,
             job.points.size());
  return failed == 0 ? 0 : 3;
}

int bench_fields_main(int argc, char** argv) {
  CLI::App app(
      "Measure the field module's kernels (deposition, Poisson solves, field, gather) as a fields "
      "job declares them (jobs/README.md), into a results file of schema schedbench.job/1 "
      "(results/README.md).",
      "bench_fields");
  Args a;
  app.add_option("job", a.job_path, "the job file, e.g. jobs/fields-kernels.json")->required();
  app.add_option("--out", a.out_path,
                 "results file (default results/<device>/<job name>.json), rewritten atomically "
                 "after every point")
      ->check(output_file());
  app.add_flag("--overwrite", a.overwrite, "replace the results file if it exists");
  app.footer(
      "Exit codes: 0 every point measured; 1 a CUDA error; 2 bad input; 3 no CUDA device, a "
      "point failed, or the results file could not be written.\n");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    print_error("bench_fields", "error", e.what());
    return 2;
  }
  return exit_code_of("bench_fields", [&] { return bench_fields(a); });
}

}  // namespace
}  // namespace sb

int main(int argc, char** argv) {
  sb::fail_writes_past_size_limit();
  return sb::bench_fields_main(argc, argv);
}
