// SELU for any element type: PyTorch's scale times the elu example's functor with PyTorch's alpha.
#pragma once
#include "../../elu/solutions/elu.cuh"

struct Selu {
  __device__ float operator()(float x) const {
    const float alpha = 1.6732632423543772f, scale = 1.0507009873554805f;
    return scale * Elu{alpha}(x);
  }
};
