// A job of the field module's kernels (jobs/fields-kernels.json, run by bench_fields): the same
// JSON form as a sweep's job (harness/job/job_form.hpp) with "program": "bench_fields", and axes
// from its own small table of parameters (kernel, grid, boundary, cloud, particles,
// repetitions) instead of the run parameters. jobs/README.md documents it.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/job/job.hpp"
#include "harness/job/job_form.hpp"

namespace sb {

enum class FieldKernel {
  kDepositAtomic,  // charge deposition, one atomic add per particle and node
  kDepositSorted,  // the same, the particles sorted by cell first
  kSolveCufft,     // the Poisson solve on the device
  kSolveFftw,      // the Poisson solve on the host, one thread
  kField,          // the field on the grid from the potential
  kGather,         // the field read at each particle
};

// "deposit-atomic", ...
const char* kernel_name(FieldKernel k);

// What one measurement of a kernel is given; each parameter applies to some kernels only.
struct FieldsConfig {
  FieldKernel kernel = FieldKernel::kField;
  int grid = 0;                    // nodes per axis of a cube of side 1 m
  bool open = false;               // boundary of the solves: open, or periodic
  bool clustered = false;          // particles in a Gaussian cloud of sigma 1/16, or uniform
  uint64_t particles = 1'000'000;  // deposited or gathered at
};

struct FieldsPoint {
  FieldsConfig config;
  int repetitions = 0;  // timed runs (the job's, or the sub-sweep's "repetitions")
  std::string label;
};

struct FieldsJob : JobHeader {
  std::vector<FieldsPoint> points;  // in job order, each configuration once
};

// The keys of the parameters a fields job's axes may name.
std::vector<std::string> fields_parameter_keys();

// The configuration as JSON: the kernel and every parameter that applies to it.
nlohmann::json fields_config_json(const FieldsConfig& c);

// Reads and expands `path`: every sub-sweep names "kernel" and "grid"; every value of every axis
// is checked; the points are counted before any is built (at most `max_points`). Throws
// UsageError naming the file and the key.
FieldsJob load_fields_job(const std::string& path, uint64_t max_points = kDefaultMaxPoints);

}  // namespace sb
