// Modular arithmetic for the finite-field references (vector-multiply-ff, poly-multiply-ff, ecc-point-negation),
// written to be obviously correct rather than fast: every product is taken in full in 128 bits and reduced with %.
// Arguments are field elements, in [0, p).
#pragma once
#include <stdint.h>

__device__ inline uint64_t fieldMul(uint64_t a, uint64_t b, uint64_t p) {
  return (uint64_t)(((unsigned __int128)a * b) % p);
}

__device__ inline uint64_t fieldAdd(uint64_t a, uint64_t b, uint64_t p) {
  return (uint64_t)(((unsigned __int128)a + b) % p);
}

// -y mod p: p - y, or 0 for y = 0.
__device__ inline uint64_t fieldNeg(uint64_t y, uint64_t p) { return (p - y % p) % p; }

// The Mersenne prime 2^31 - 1 of the uint32 problems.
constexpr uint64_t kMersenne31 = 2147483647ull;
