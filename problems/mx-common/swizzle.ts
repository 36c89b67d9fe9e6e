// The size of a scale matrix in cuBLAS's 1-D block-scaling-factor layout (the 128×4 swizzle of NVFP4 and of torch's
// SWIZZLE_32_4_4): rows × blocks per row, padded to whole tiles of 128 rows × 4 blocks.

/** Scale bytes of a matrix with `rows` rows and `blocks` scale blocks per row, padded to whole 128×4 tiles. */
export const swizzledScaleBytes = (rows: number, blocks: number) => Math.ceil(rows / 128) * 128 * Math.ceil(blocks / 4) * 4
