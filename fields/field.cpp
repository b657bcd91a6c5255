#include "fields/field.hpp"

namespace sb::fields {

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
