#include "fields/mesh_nodes.hpp"

#include <fmt/format.h>

#include <string>

#include "core/errors.hpp"

namespace sb::fields {
namespace {

constexpr uint64_t kFewestNodes = 16;
constexpr uint64_t kMostNodes = 1024;  // the most any sim takes: pic, cells of 0.5 cm

}  // namespace

const DeclaredParameter& grid() {
  static const DeclaredParameter p = recorded_when_given(whole_parameter(
      "grid", "--grid",
      "pic with --field poisson, air with --space-charge: mesh nodes per side, a power of two "
      "(pic: 16 to 1024 over its 5.12 m cube, default 512, cells of 1 cm; air: 16 to 512 over its "
      "swarm and ions, default 64, since its open solve transforms twice as many per side)",
      "mesh nodes per side", kFewestNodes, kMostNodes, std::nullopt));
  return p;
}

const DeclaredParameter& field_solver() {
  static const DeclaredParameter p = recorded_when_given(choice_parameter(
      "field_solver", "--field-solver",
      "pic with --field poisson, air with --space-charge: where GPU runs solve Poisson's "
      "equation, device (default; cuFFT) or host (FFTW, as the CPU engines do, so that they give "
      "cpu-serial's digest)",
      "Poisson solver", {"device", "host"}, "device"));
  return p;
}

int mesh_nodes(const RunConfig& c, int fallback, int most) {
  const uint64_t n = grid().given(c) ? grid().whole(c) : static_cast<uint64_t>(fallback);
  const bool power = (n & (n - 1)) == 0;
  if (power && n <= static_cast<uint64_t>(most)) return static_cast<int>(n);
  std::string accepted;
  for (uint64_t p = kFewestNodes; p <= static_cast<uint64_t>(most); p *= 2)
    accepted += fmt::format("{}{}", accepted.empty() ? "" : ", ", p);
  throw UsageError(fmt::format(
      "{}: {} is {}; accepted: {} (the FFT solve's mesh sizes)", grid().flag, n,
      power ? "more nodes than this sim's field takes" : "not a power of two", accepted));
}

bool solve_on_device(const RunConfig& c) {
  return field_solver().text(c) == "device";
}

void refuse_mesh_options(const RunConfig& c, const char* needs, const char* instead) {
  for (const DeclaredParameter* p : {&grid(), &field_solver()}) {
    if (p->given(c)) {
      throw UsageError(fmt::format("{}: {} applies with {} only; {}", p->flag,
                                   c.declared_values.at(p->key), needs, instead));
    }
  }
}

}  // namespace sb::fields
