#include "fields/device/poisson_device.hpp"

#include <cufft.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/cuda_check.hpp"
#include "fields/device/launch.cuh"
#include "fields/green.hpp"

namespace sb::fields {
namespace {

// cuFFT's failures: running out of memory is an AllocationError (exit code 3), as for buffers.
void check_cufft(cufftResult r, const char* what) {
  if (r == CUFFT_SUCCESS) return;
  const std::string message = fmt::format("cuFFT: {} failed (cufftResult {})", what, int(r));
  if (r == CUFFT_ALLOC_FAILED) throw AllocationError("out of memory: " + message);
  throw CudaError(message);
}

// The complex values of a real-to-complex transform of a cube of `side` nodes per axis: x (the
// fastest axis, cuFFT's last dimension) keeps side / 2 + 1 of its wave numbers.
uint64_t half_spectrum(uint64_t side) {
  return side * side * (side / 2 + 1);
}

// One cuFFT plan of a cube of `side` nodes per axis, without its own work area: the forward and
// inverse plans of a solver share one (set_work_area), sized for the larger.
class Plan {
 public:
  Plan(int side, cufftType type, cudaStream_t stream) {
    check_cufft(cufftCreate(&plan_), "cufftCreate");
    try {
      check_cufft(cufftSetAutoAllocation(plan_, 0), "cufftSetAutoAllocation");
      check_cufft(cufftMakePlan3d(plan_, side, side, side, type, &work_bytes_),
                  fmt::format("planning a {}^3 transform", side).c_str());
      check_cufft(cufftSetStream(plan_, stream), "cufftSetStream");
    } catch (...) {
      cufftDestroy(plan_);  // the destructor of an object never made does not run
      throw;
    }
  }
  ~Plan() { cufftDestroy(plan_); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  size_t work_bytes() const { return work_bytes_; }
  void set_work_area(void* area) { check_cufft(cufftSetWorkArea(plan_, area), "cufftSetWorkArea"); }
  void forward(const double* in, cufftDoubleComplex* out) const {
    // An out-of-place real-to-complex transform leaves its input as it was.
    check_cufft(cufftExecD2Z(plan_, const_cast<double*>(in), out), "a forward transform");
  }
  void inverse(cufftDoubleComplex* in, double* out) const {
    check_cufft(cufftExecZ2D(plan_, in, out), "an inverse transform");
  }

 private:
  cufftHandle plan_{};
  size_t work_bytes_ = 0;
};

// The forward (D2Z) and inverse (Z2D) plans of a cube and their shared work area.
struct PlanPair {
  PlanPair(int side, cudaStream_t stream)
      : forward(side, CUFFT_D2Z, stream),
        inverse(side, CUFFT_Z2D, stream),
        work(std::max(forward.work_bytes(), inverse.work_bytes()), "cuFFT's work area") {
    forward.set_work_area(work.data());
    inverse.set_work_area(work.data());
  }
  Plan forward, inverse;
  DeviceBuffer<unsigned char> work;
};

// cuFFT's estimate of the work area of a cube's transforms, without planning them.
uint64_t estimated_work_bytes(int side) {
  size_t d2z = 0, z2d = 0;
  check_cufft(cufftEstimate3d(side, side, side, CUFFT_D2Z, &d2z), "cufftEstimate3d");
  check_cufft(cufftEstimate3d(side, side, side, CUFFT_Z2D, &z2d), "cufftEstimate3d");
  return std::max(d2z, z2d);
}

// Periodic: phi's transform is rho's over eps0 times minus the 7-point Laplacian's eigenvalue
// (fields/green.hpp), and over n^3 to undo the unnormalised transforms; the zero mode (rho's
// mean) is set to 0. The factor is the host solver's expression, so the same bits.
__global__ void apply_periodic(cufftDoubleComplex* spectrum, const double* eigenvalue, int n) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int half = n / 2 + 1;
  if (t >= uint64_t(n) * n * half) return;
  const int kx = static_cast<int>(t % half);
  const int ky = static_cast<int>(t / half % n);
  const int kz = static_cast<int>(t / half / n);
  const double laplacian = eigenvalue[kx] + eigenvalue[ky] + eigenvalue[kz];
  const double cube = double(n) * n * n;
  const double f = laplacian == 0 ? 0 : 1 / (kEpsilon0 * laplacian * cube);
  spectrum[t].x *= f;
  spectrum[t].y *= f;
}

class PeriodicSolver final : public PoissonSolver {
 public:
  PeriodicSolver(const Mesh& m, cudaStream_t stream)
      : mesh_(m),
        stream_(stream),
        plans_(m.n, stream),
        spectrum_(half_spectrum(m.n), "the periodic solve's spectrum"),
        eigenvalue_(m.n, "the Laplacian's eigenvalues per axis") {
    // Computed on the host, as the host solver does (the device's sin may round otherwise), so
    // that both multiply by the same factors.
    std::vector<double> e(m.n);
    for (int k = 0; k < m.n; ++k)
      e[k] = second_difference_eigenvalue(m.n, m.h, k);
    SB_CUDA_CHECK(cudaMemcpyAsync(eigenvalue_.data(), e.data(), e.size() * sizeof(double),
                                  cudaMemcpyHostToDevice, stream));
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  void solve(const double* rho, double* phi) override {
    plans_.forward.forward(rho, spectrum_.data());
    apply_periodic<<<blocks_for(spectrum_.size()), kBlock, 0, stream_>>>(
        spectrum_.data(), eigenvalue_.data(), mesh_.n);
    SB_CUDA_CHECK(cudaGetLastError());
    plans_.inverse.inverse(spectrum_.data(), phi);
  }

 private:
  Mesh mesh_;
  cudaStream_t stream_;
  PlanPair plans_;
  DeviceBuffer<cufftDoubleComplex> spectrum_;
  DeviceBuffer<double> eigenvalue_;
};

// Open (Hockney and Eastwood): rho zero-padded to the doubled grid, convolved cyclically with
// the Green's function sampled there (free_space_green), and the first n^3 nodes kept.
__global__ void sample_green(Mesh m, double* padded) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t side = 2 * uint64_t(m.n);
  if (t >= side * side * side) return;
  padded[t] =
      free_space_green(m.n, m.h, static_cast<int>(t % side), static_cast<int>(t / side % side),
                       static_cast<int>(t / side / side));
}

// G is even on the doubled grid, so its transform is real: keep the real part, with the cell
// volume (rho h^3 is a node's charge) and 1 / (2n)^3 to undo the unnormalised transforms.
__global__ void keep_green_transform(const cufftDoubleComplex* spectrum, uint64_t count,
                                     double factor, double* green) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < count) green[t] = spectrum[t].x * factor;
}

__global__ void pad(const double* rho, int n, double* padded) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint64_t side = 2 * uint64_t(n);
  if (t >= side * side * side) return;
  const uint64_t i = t % side, j = t / side % side, k = t / side / side;
  padded[t] = i < uint64_t(n) && j < uint64_t(n) && k < uint64_t(n) ? rho[(k * n + j) * n + i] : 0;
}

__global__ void convolve(cufftDoubleComplex* spectrum, const double* green, uint64_t count) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  spectrum[t].x *= green[t];
  spectrum[t].y *= green[t];
}

__global__ void crop(const double* padded, int n, double* phi) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= uint64_t(n) * n * n) return;
  const uint64_t i = t % n, j = t / n % n, k = t / n / n;
  const uint64_t side = 2 * uint64_t(n);
  phi[t] = padded[(k * side + j) * side + i];
}

class OpenSolver final : public PoissonSolver {
 public:
  OpenSolver(const Mesh& m, cudaStream_t stream)
      : mesh_(m),
        stream_(stream),
        plans_(2 * m.n, stream),
        padded_(uint64_t(8) * m.nodes(), "the open solve's doubled grid"),
        spectrum_(half_spectrum(2 * uint64_t(m.n)), "the open solve's spectrum"),
        green_(spectrum_.size(), "the Green's function's transform") {
    sample_green<<<blocks_for(padded_.size()), kBlock, 0, stream>>>(m, padded_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    plans_.forward.forward(padded_.data(), spectrum_.data());
    const double factor = m.h * m.h * m.h / static_cast<double>(padded_.size());
    keep_green_transform<<<blocks_for(spectrum_.size()), kBlock, 0, stream>>>(
        spectrum_.data(), spectrum_.size(), factor, green_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    SB_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  void solve(const double* rho, double* phi) override {
    pad<<<blocks_for(padded_.size()), kBlock, 0, stream_>>>(rho, mesh_.n, padded_.data());
    SB_CUDA_CHECK(cudaGetLastError());
    plans_.forward.forward(padded_.data(), spectrum_.data());
    convolve<<<blocks_for(spectrum_.size()), kBlock, 0, stream_>>>(spectrum_.data(), green_.data(),
                                                                   spectrum_.size());
    SB_CUDA_CHECK(cudaGetLastError());
    plans_.inverse.inverse(spectrum_.data(), padded_.data());
    crop<<<blocks_for(mesh_.nodes()), kBlock, 0, stream_>>>(padded_.data(), mesh_.n, phi);
    SB_CUDA_CHECK(cudaGetLastError());
  }

 private:
  Mesh mesh_;
  cudaStream_t stream_;
  PlanPair plans_;
  DeviceBuffer<double> padded_;
  DeviceBuffer<cufftDoubleComplex> spectrum_;
  DeviceBuffer<double> green_;
};

}  // namespace

uint64_t solver_bytes(const Mesh& mesh, Boundary boundary) {
  if (boundary == Boundary::kPeriodic) {
    return half_spectrum(mesh.n) * sizeof(cufftDoubleComplex) + mesh.n * sizeof(double) +
           estimated_work_bytes(mesh.n);
  }
  const uint64_t side = 2 * uint64_t(mesh.n);
  return side * side * side * sizeof(double) +
         half_spectrum(side) * (sizeof(cufftDoubleComplex) + sizeof(double)) +
         estimated_work_bytes(static_cast<int>(side));
}

std::unique_ptr<PoissonSolver> make_device_solver(const Mesh& mesh, Boundary boundary,
                                                  cudaStream_t stream) {
  if (mesh.n < 3) throw std::invalid_argument("the Poisson solver needs at least 3 nodes per axis");
  if (boundary == Boundary::kPeriodic) return std::make_unique<PeriodicSolver>(mesh, stream);
  return std::make_unique<OpenSolver>(mesh, stream);
}

}  // namespace sb::fields
