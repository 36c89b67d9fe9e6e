import { defineQuantizeProblem } from '../mx-common/quantize.js'
import { swizzledScaleBytes } from '../mx-common/swizzle.js'

/**
 * Tensara's nvfp4-quantize (FlashInfer's nvfp4_quantize, 128×4 swizzled scales): each block of 16 along K gets the
 * E4M3 scale s = E4M3(sf_g · amax / 6), and its elements x · 1/(s / sf_g) rounded to E2M1 (nearest even, saturated
 * at 6), two per byte with the even element in the low nibble; the reciprocals are FlashInfer's rcp.approx ones.
 * Judged as Tensara judges it: both sides' q and scale dequantized (FlashInfer's e2m1_and_ufp8sf_scale_to_float with
 * 1/sf_g) and compared with rtol = atol = 1e-3; the padding of the scale tiles is not decoded, so not judged.
 * Tensara's "float8" scale parameter is a uint8_t in C.
 *
 * Tensara passes sf_g = 6·448 / amax(|a|) of its uniform [-1, 1) half data, about 2688; here every case passes 2688
 * (the largest magnitude of a large uniform draw is 1 to within its spacing), so every block scale is at most 448.
 */
export const nvfp4Quantize = defineQuantizeProblem({
  name: 'nvfp4-quantize',
  description:
    'float16 to NVFP4: q packs E2M1(a[i][j] · sf_g / E4M3 scale of row i, block j/16) two per byte (the even element ' +
    'in the low nibble), scales E4M3(sf_g · amax / 6) in the 128×4 swizzled layout, judged by dequantizing both ' +
    'sides and comparing with rtol = atol = 1e-3.',
  dtype: 'float16',
  blockSize: 16,
  elementsPerByte: 2,
  scaleAlias: '__nv_fp8_e4m3',
  scaleBytesFor: (m, k) => swizzledScaleBytes(m, k / 16),
  globals: { params: [{ name: 'sf_g', kind: 'scalar', ctype: 'float' }], values: { sf_g: 2688 } },
})
