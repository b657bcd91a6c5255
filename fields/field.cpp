#include "fields/field.hpp"

namespace sb::fields {

namespace {

// -d phi / d(axis) at node `at`, whose coordinate on that axis is c, its neighbours `stride`
// apart in memory.
double minus_derivative(const double* phi, uint64_t at, uint64_t stride, int c, int n,
                        Boundary boundary, double h) {
  if (boundary == Boundary::kPeriodic) {
    const uint64_t below = c == 0 ? at + (n - 1) * stride : at - stride;
    const uint64_t above = c == n - 1 ? at - (n - 1) * stride : at + stride;
    return -(phi[above] - phi[below]) / (2 * h);
  }
  if (c == 0) return -(-3 * phi[at] + 4 * phi[at + stride] - phi[at + 2 * stride]) / (2 * h);
  if (c == n - 1) return -(3 * phi[at] - 4 * phi[at - stride] + phi[at - 2 * stride]) / (2 * h);
  return -(phi[at + stride] - phi[at - stride]) / (2 * h);
}

}  // namespace

void electric_field(const Mesh& mesh, Boundary boundary, const double* phi, double* ex, double* ey,
                    double* ez) {
  const int n = mesh.n;
  const uint64_t row = n, plane = uint64_t(n) * n;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const uint64_t at = mesh.index(i, j, k);
        ex[at] = minus_derivative(phi, at, 1, i, n, boundary, mesh.h);
        ey[at] = minus_derivative(phi, at, row, j, n, boundary, mesh.h);
        ez[at] = minus_derivative(phi, at, plane, k, n, boundary, mesh.h);
      }
}

}  // namespace sb::fields
