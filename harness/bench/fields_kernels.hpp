// The field module's kernels measured one at a time (docs/physics.md, "The field module's
// kernels, measured"), for bench_fields: deposition (atomic or sorted by cell), the Poisson solve (cuFFT, or
// FFTW on one host thread), the field and its gather. Device passes are timed by CUDA events, the
// host solve by a steady clock (harness/bench/timing.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "harness/bench/timing.hpp"
#include "harness/job/fields_job.hpp"

namespace sb {

// `warmup` untimed passes of the point's kernel, then its repetitions, each one pass. Sets
// `counters`: particles_per_cell for a deposit, solver_bytes for a cuFFT solve. Needs a CUDA
// device. Throws RunError where the device lacks the memory.
TimedRepetitions measure_fields_point(const FieldsPoint& p, int warmup,
                                      nlohmann::ordered_json& counters);

}  // namespace sb
