// The CPU Poisson solvers, on FFTW's real-to-complex transforms, in place.
//
// Plans are made with FFTW_ESTIMATE only: FFTW_MEASURE (or PATIENT) picks among algorithms by
// timing them, so two runs could round differently and the same input give different bits.
// Under ESTIMATE the plan, and so the result, is a function of the sizes alone (on one CPU:
// FFTW's SIMD code paths differ between instruction sets).
#include <fftw3.h>

#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include "fields/green.hpp"
#include "fields/poisson.hpp"

#include "core/memory.hpp"

namespace sb::fields {

PoissonSolver::~PoissonSolver() = default;

namespace {

// FFTW's planner is not thread-safe (executing a plan is): planning is serialised.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// A cube of m^3 reals transformed in place: each x row padded to 2 (m/2 + 1) reals, the m x m x
// (m/2 + 1) complex spectrum over the same memory; plans made once.
class InPlaceCube {
 public:
  explicit InPlaceCube(int m)
      : m_(m), row_(2 * (m / 2 + 1)), data_(fftw_alloc_real(uint64_t(m) * m * row_)) {
    if (data_ == nullptr)
      throw allocation_error("host", "the FFT's cube", uint64_t(m) * m * row_, sizeof(double));
    auto* spectrum = reinterpret_cast<fftw_complex*>(data_);
    std::lock_guard<std::mutex> lock(planner_mutex());
    forward_ = fftw_plan_dft_r2c_3d(m, m, m, data_, spectrum, FFTW_ESTIMATE);
    backward_ = fftw_plan_dft_c2r_3d(m, m, m, spectrum, data_, FFTW_ESTIMATE);
  }
  ~InPlaceCube() {
    std::lock_guard<std::mutex> lock(planner_mutex());
    fftw_destroy_plan(forward_);
    fftw_destroy_plan(backward_);
    fftw_free(data_);
  }
  InPlaceCube(const InPlaceCube&) = delete;
  InPlaceCube& operator=(const InPlaceCube&) = delete;

  int size() const { return m_; }
  // The real at (i, j, k) of the cube, i fastest.
  double& at(int i, int j, int k) { return data_[(uint64_t(k) * m_ + j) * row_ + i]; }
  // The complex spectrum: m x m x (m/2 + 1), the last index fastest (wave numbers 0 .. m/2).
  fftw_complex* spectrum() { return reinterpret_cast<fftw_complex*>(data_); }
  uint64_t spectrum_size() const { return uint64_t(m_) * m_ * (m_ / 2 + 1); }
  void zero() { std::memset(data_, 0, sizeof(double) * uint64_t(m_) * m_ * row_); }
  void forward() { fftw_execute(forward_); }
  // Unnormalised: the forward then backward transform multiplies by m^3.
  void backward() { fftw_execute(backward_); }

  // Copies the n^3 values of `in` (i fastest) into the corner of the cube starting at 0, or
  // that corner back out to `out`.
  void load(int n, const double* in) {
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        std::memcpy(&at(0, j, k), in + (uint64_t(k) * n + j) * n, sizeof(double) * n);
  }
  void store(int n, double* out) {
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        std::memcpy(out + (uint64_t(k) * n + j) * n, &at(0, j, k), sizeof(double) * n);
  }

 private:
  int m_;
  int row_;
  double* data_;
  fftw_plan forward_ = nullptr;
  fftw_plan backward_ = nullptr;
};

// Periodic: phi's spectrum is rho's over eps0 times minus the 7-point Laplacian's eigenvalue;
// the zero mode (rho's mean, phi's mean) is set to 0.
class PeriodicSolver final : public PoissonSolver {
 public:
  explicit PeriodicSolver(const Mesh& mesh) : n_(mesh.n), cube_(mesh.n), eigenvalue_(mesh.n) {
    for (int k = 0; k < n_; ++k)
      eigenvalue_[k] = second_difference_eigenvalue(n_, mesh.h, k);
  }

  void solve(const double* rho, double* phi) override {
    cube_.load(n_, rho);
    cube_.forward();
    fftw_complex* s = cube_.spectrum();
    const int half = n_ / 2 + 1;
    const double cube = double(n_) * n_ * n_;
    for (int k = 0; k < n_; ++k)
      for (int j = 0; j < n_; ++j)
        for (int i = 0; i < half; ++i) {
          const double laplacian = eigenvalue_[i] + eigenvalue_[j] + eigenvalue_[k];
          const double factor = laplacian == 0 ? 0 : 1 / (kEpsilon0 * laplacian * cube);
          double* c = s[(uint64_t(k) * n_ + j) * half + i];
          c[0] *= factor;
          c[1] *= factor;
        }
    cube_.backward();
    cube_.store(n_, phi);
  }

 private:
  int n_;
  InPlaceCube cube_;
  std::vector<double> eigenvalue_;  // per wave number, the same on every axis
};

// Open (Hockney & Eastwood): rho zero-padded onto the doubled grid, convolved cyclically there
// with the symmetric Green's function, whose spectrum is real and computed once.
class OpenSolver final : public PoissonSolver {
 public:
  explicit OpenSolver(const Mesh& mesh) : n_(mesh.n), cube_(2 * mesh.n) {
    const int m = cube_.size();
    for (int k = 0; k < m; ++k)
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
          cube_.at(i, j, k) = free_space_green(n_, mesh.h, i, j, k);
    cube_.forward();
    // phi_i = sum_j G(i - j) rho_j h^3, and the backward transform's factor m^3 undone.
    const double scale = mesh.h * mesh.h * mesh.h / (double(m) * m * m);
    green_ = allocate_host<double>(cube_.spectrum_size(), "the open solve's Green function");
    const fftw_complex* s = cube_.spectrum();
    for (uint64_t q = 0; q < green_.size(); ++q)
      green_[q] = s[q][0] * scale;
  }

  void solve(const double* rho, double* phi) override {
    cube_.zero();
    cube_.load(n_, rho);
    cube_.forward();
    fftw_complex* s = cube_.spectrum();
    for (uint64_t q = 0; q < green_.size(); ++q) {
      s[q][0] *= green_[q];
      s[q][1] *= green_[q];
    }
    cube_.backward();
    cube_.store(n_, phi);
  }

 private:
  int n_;
  InPlaceCube cube_;  // the doubled grid
  std::vector<double> green_;
};

}  // namespace

std::unique_ptr<PoissonSolver> make_host_solver(const Mesh& mesh, Boundary boundary) {
  if (mesh.n < 3) throw std::invalid_argument("the Poisson solver needs at least 3 nodes per axis");
  if (boundary == Boundary::kPeriodic) return std::make_unique<PeriodicSolver>(mesh);
  return std::make_unique<OpenSolver>(mesh);
}

}  // namespace sb::fields
