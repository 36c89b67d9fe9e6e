// Cumulative sum: reduce, then scan, over tiles of 2048 elements (reduction-common/scan.cuh).
#include "../../reduction-common/scan.cuh"

extern "C" void solution(const float* input, float* output, size_t N) { reduction::inclusiveScan<reduction::Sum>(input, output, N); }
