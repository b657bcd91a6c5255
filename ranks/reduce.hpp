// Reductions over the ranks that the sims' work between phases needs (docs/design.md §10): grids
// of counts and of fixed-point charge summed exactly, and the bounds of what the ranks hold. Each
// gives every rank the same result, so that every rank computes the same field.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/fixed_sum.hpp"
#include "ranks/communicator.hpp"

namespace sb::ranks {

// Sums over the ranks, in place: exact (through 64-bit sums; int64 in two's complement).
void sum(Communicator& comm, int64_t* values, uint64_t n);
void sum(Communicator& comm, uint32_t* values, uint64_t n);

// The box around every rank's box, in place: lo[i] the least over the ranks, hi[i] the most, for
// i < n; doubles through a map to integers that keeps their order, so exact.
void bounds(Communicator& comm, double* lo, double* hi, size_t n);
void bounds(Communicator& comm, int* lo, int* hi, size_t n);

// The sums over the ranks of n signed 128-bit values, in place, the same on every rank: one
// exchange for them all.
void sum(Communicator& comm, Int128* values, size_t n);

}  // namespace sb::ranks
