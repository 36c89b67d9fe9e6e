import { defineDequantizeProblem } from '../mx-common/dequantize.js'
import { swizzledScaleBytes } from '../mx-common/swizzle.js'

/**
 * Tensara's nvfp4-dequantize (FlashInfer's e2m1_and_ufp8sf_scale_to_float): out = E2M1 element (two per byte, the
 * even element in the low nibble) × E4M3 scale of its block of 16 along K × 1/sf_g, scales in the 128×4 swizzled
 * layout (cuBLAS's 1-D block scaling factors layout). Tensara's "float8" scale parameter is a uint8_t in C.
 *
 * Tensara quantizes uniform [-1, 1) half data with FlashInfer and passes sf_g = 6·448 / amax, about 2688. Here sf_g is
 * 2688 in every case and the bytes are drawn: `q` from every byte (every pair of E2M1 codes is a value) and `scale`
 * from 0x00..0x7E, every finite non-negative E4M3 value (NVFP4 scales are unsigned; 0x7F is NaN).
 */
export const nvfp4Dequantize = defineDequantizeProblem({
  name: 'nvfp4-dequantize',
  description:
    'NVFP4 to float32: out[i][j] = E2M1(q, i·K + j) · E4M3(scale of row i, block j/16) / sf_g, a row-major M×K ' +
    'matrix packed two E2M1 codes per byte (the even element in the low nibble), scales in the 128×4 swizzled layout.',
  blockSize: 16,
  elementsPerByte: 2,
  qBytes: [0, 256],
  scaleBytes: [0, 0x7f],
  scaleAlias: '__nv_fp8_e4m3',
  scaleBytesFor: (m, k) => swizzledScaleBytes(m, k / 16),
  globals: { params: [{ name: 'sf_g', kind: 'scalar', ctype: 'float' }], values: { sf_g: 2688 } },
})
