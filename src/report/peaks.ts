// Datasheet peaks per GPU model, and a lookup by the name CUDA reports (cudaGetDeviceProperties().name). See
// docs/architecture.md, "Figures": efficiency = achieved / peak, and the roofline floor is
// max(flops / compute peak, bytes / memory bandwidth).
//
// Conventions, for every entry:
// - TFLOP/s are DENSE (no 2:4 structured sparsity). NVIDIA's data-center datasheets mark most tensor figures
//   "with sparsity"; those are halved here, and the entry's `source` says so.
// - `float32` is plain FP32 on the CUDA cores (no tensor cores); the roofline judges float32 work against the faster
//   of it and `tf32` / 3 (3×TF32 stays fp32-accurate: metrics.ts computeCeiling). `tf32`, `float16`, `bfloat16`
//   and `fp8` are tensor-core figures with FP32 accumulate where the vendor distinguishes (GeForce parts run
//   FP16/BF16/FP8 with FP32 accumulate at half the FP16-accumulate rate; the FP32-accumulate figure is the one used).
// - Bandwidth is GB/s with 1 GB = 1e9 bytes (so 3.35 TB/s = 3350).
// - A dtype the datasheet does not give is left out, never guessed: callers then fall back to measured
//   ceilings (cuBLAS GEMM per dtype, a device-to-device copy).

export type PeakDtype = 'float32' | 'tf32' | 'float16' | 'bfloat16' | 'fp8'

export interface GpuPeaks {
  /** Model, e.g. 'H100 SXM'. */
  model: string
  /** DENSE peak TFLOP/s per dtype; a missing key means no datasheet figure. */
  tflops: Partial<Record<PeakDtype, number>>
  /** Peak DRAM bandwidth in GB/s (1e9 bytes/s). */
  memoryBandwidthGBs: number
  /** Where the figures come from (datasheet name / URL and date). */
  source: string
}

const H100_DATASHEET =
  'NVIDIA H100 Tensor Core GPU datasheet (https://www.nvidia.com/en-us/data-center/h100/, 2023 edition with SXM / PCIe / NVL columns)'

function entry(peaks: GpuPeaks): GpuPeaks {
  Object.freeze(peaks.tflops)
  return Object.freeze(peaks)
}

// Hopper SXM5 compute (H100 SXM, H200 SXM, H800 SXM share it): FP32 67; TF32 989*, FP16/BF16 1,979*,
// FP8 3,958* TFLOPS, where * = with sparsity.
const HOPPER_SXM_TFLOPS = { float32: 67, tf32: 494.5, float16: 989.5, bfloat16: 989.5, fp8: 1979 } as const

const H100_SXM = entry({
  model: 'H100 SXM',
  tflops: { ...HOPPER_SXM_TFLOPS },
  memoryBandwidthGBs: 3350,
  source:
    `${H100_DATASHEET}, H100 SXM column: FP32 67 TFLOPS; TF32 989, BF16/FP16 1,979, FP8 3,958 TFLOPS listed ` +
    'with sparsity, halved here to dense (494.5 / 989.5 / 1,979); memory bandwidth 3.35 TB/s.',
})

const H100_PCIE = entry({
  model: 'H100 PCIe',
  tflops: { float32: 51, tf32: 378, float16: 756.5, bfloat16: 756.5, fp8: 1513 },
  memoryBandwidthGBs: 2000,
  source:
    `${H100_DATASHEET}, H100 PCIe column: FP32 51 TFLOPS; TF32 756, BF16/FP16 1,513, FP8 3,026 TFLOPS listed ` +
    'with sparsity, halved here to dense (378 / 756.5 / 1,513); memory bandwidth 2 TB/s.',
})

const H100_NVL = entry({
  model: 'H100 NVL',
  tflops: { float32: 60, tf32: 417.5, float16: 835.5, bfloat16: 835.5, fp8: 1670.5 },
  memoryBandwidthGBs: 3900,
  source:
    `${H100_DATASHEET}, H100 NVL column (per GPU, 94 GB): FP32 60 TFLOPS; TF32 835, BF16/FP16 1,671, ` +
    'FP8 3,341 TFLOPS listed with sparsity, halved here to dense (417.5 / 835.5 / 1,670.5); memory bandwidth ' +
    '3.9 TB/s.',
})

const H200_SXM = entry({
  model: 'H200 SXM',
  tflops: { ...HOPPER_SXM_TFLOPS },
  memoryBandwidthGBs: 4800,
  source:
    'NVIDIA H200 Tensor Core GPU datasheet / product page (https://www.nvidia.com/en-us/data-center/h200/, ' +
    '2024), H200 SXM column: FP32 67 TFLOPS; TF32 989, BF16/FP16 1,979, FP8 3,958 TFLOPS listed with sparsity, ' +
    'halved here to dense (same compute as H100 SXM); memory bandwidth 4.8 TB/s (141 GB HBM3e).',
})

const H800_SXM = entry({
  model: 'H800 SXM',
  tflops: { ...HOPPER_SXM_TFLOPS },
  memoryBandwidthGBs: 3350,
  source:
    'NVIDIA H800 Tensor Core GPU datasheet (2023), H800 SXM column: FP32 67 TFLOPS; TF32 989, BF16/FP16 1,979, ' +
    'FP8 3,958 TFLOPS listed with sparsity, halved here to dense; memory bandwidth 3.35 TB/s. Same compute and ' +
    'HBM3 as H100 SXM except FP64 (1 TFLOPS) and NVLink (400 GB/s). Figures corroborated by secondary sources; ' +
    'the datasheet text itself was not retrieved when this table was written (2026-11).',
})

const A100_DATASHEET =
  'NVIDIA A100 Tensor Core GPU datasheet r4 (https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/' +
  'a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf, 2021)'
// The A100 datasheet lists dense and sparse side by side ("156 TF | 312 TF*"): the dense figures are taken.
// No FP8 on Ampere.
const A100_TFLOPS = { float32: 19.5, tf32: 156, float16: 312, bfloat16: 312 } as const
const A100_COMPUTE_NOTE =
  'FP32 19.5 TFLOPS; dense tensor TF32 156, BF16/FP16 312 TFLOPS (the datasheet gives dense and sparse side ' +
  'by side; dense taken). No FP8 on Ampere.'

const A100_SXM_40 = entry({
  model: 'A100 40GB SXM',
  tflops: { ...A100_TFLOPS },
  memoryBandwidthGBs: 1555,
  source: `${A100_DATASHEET}, A100 40GB SXM: ${A100_COMPUTE_NOTE} Memory bandwidth 1,555 GB/s (HBM2).`,
})

const A100_SXM_80 = entry({
  model: 'A100 80GB SXM',
  tflops: { ...A100_TFLOPS },
  memoryBandwidthGBs: 2039,
  source: `${A100_DATASHEET}, A100 80GB SXM column: ${A100_COMPUTE_NOTE} Memory bandwidth 2,039 GB/s (HBM2e).`,
})

const A100_PCIE_40 = entry({
  model: 'A100 40GB PCIe',
  tflops: { ...A100_TFLOPS },
  memoryBandwidthGBs: 1555,
  source: `${A100_DATASHEET}, A100 40GB PCIe: ${A100_COMPUTE_NOTE} Memory bandwidth 1,555 GB/s (HBM2).`,
})

const A100_PCIE_80 = entry({
  model: 'A100 80GB PCIe',
  tflops: { ...A100_TFLOPS },
  memoryBandwidthGBs: 1935,
  source: `${A100_DATASHEET}, A100 80GB PCIe column: ${A100_COMPUTE_NOTE} Memory bandwidth 1,935 GB/s (HBM2e).`,
})

const L40S = entry({
  model: 'L40S',
  tflops: { float32: 91.6, tf32: 183, float16: 366.5, bfloat16: 366.5, fp8: 733 },
  memoryBandwidthGBs: 864,
  source:
    'NVIDIA L40S datasheet (https://www.nvidia.com/en-us/data-center/l40s/, 2023): FP32 91.6 TFLOPS; TF32 366, ' +
    'BF16/FP16 733, FP8 1,466 TFLOPS listed with sparsity, halved here to dense (183 / 366.5 / 733); memory ' +
    'bandwidth 864 GB/s (48 GB GDDR6).',
})

const RTX_4090 = entry({
  model: 'RTX 4090',
  tflops: { float32: 82.6, tf32: 82.6, float16: 165.2, bfloat16: 165.2, fp8: 330.3 },
  memoryBandwidthGBs: 1008,
  source:
    'NVIDIA Ada GPU Architecture whitepaper (https://images.nvidia.com/aem-dam/Solutions/geforce/ada/' +
    'nvidia-ada-gpu-architecture.pdf, 2022-2023), Appendix A, GeForce RTX 4090: peak FP32 (non-tensor) 82.6 ' +
    'TFLOPS; dense tensor TF32 82.6, FP16 and BF16 with FP32 accumulate 165.2, FP8 with FP32 accumulate 330.3 ' +
    'TFLOPS (the whitepaper lists dense/sparse pairs; dense taken; FP16-accumulate rates, twice these, not ' +
    'used); memory bandwidth 1,008 GB/s (24 GB GDDR6X).',
})

const RTX_PRO_6000_BLACKWELL = entry({
  model: 'RTX PRO 6000 Blackwell',
  tflops: { float32: 125 },
  memoryBandwidthGBs: 1792,
  source:
    'NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet (https://www.nvidia.com/en-us/products/' +
    'workstations/professional-desktop-gpus/rtx-pro-6000/, 2025): single-precision FP32 125 TFLOPS; memory ' +
    'bandwidth 1,792 GB/s (96 GB GDDR7, 512-bit). The datasheet gives tensor throughput only as "4,000 AI TOPS" ' +
    '(FP4 with sparsity), so TF32/FP16/BF16/FP8 tensor peaks are left out rather than derived.',
})

const B200 = entry({
  model: 'B200',
  tflops: { float32: 75, tf32: 1100, float16: 2250, bfloat16: 2250, fp8: 4500 },
  memoryBandwidthGBs: 7700,
  source:
    'NVIDIA HGX B200 specifications (https://www.nvidia.com/en-us/data-center/hgx/, 2025), individual B200 ' +
    'GPU: FP32 75 TFLOPS; TF32 2.2, FP16/BF16 4.5, FP8 9 PFLOPS listed with sparsity, halved here to dense ' +
    '(1,100 / 2,250 / 4,500 TFLOPS); memory bandwidth 7.7 TB/s (180 GB HBM3e). The DGX B200 datasheet quotes ' +
    '8 TB/s per GPU (64 TB/s for 8); the lower HGX figure is used.',
})

/** Every model in the table, in no particular order (lookup order lives in `RULES`). */
export const GPU_PEAKS: readonly GpuPeaks[] = Object.freeze([
  H100_SXM,
  H100_PCIE,
  H100_NVL,
  H200_SXM,
  H800_SXM,
  A100_SXM_40,
  A100_SXM_80,
  A100_PCIE_40,
  A100_PCIE_80,
  L40S,
  RTX_4090,
  RTX_PRO_6000_BLACKWELL,
  B200,
])

/**
 * Lower-case, turn underscores into spaces, collapse runs of whitespace, drop a leading "nvidia ".
 * Hyphens stay: "a100-sxm4-80gb" still splits into words for \b.
 */
function normalize(deviceName: string): string {
  return deviceName
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^nvidia /, '')
}

interface Rule {
  /** Returns the model for a normalized name, or undefined when this rule does not claim it. */
  match(name: string): GpuPeaks | undefined
}

const has = (name: string, re: RegExp): boolean => re.test(name)

// Whole-word tokens: \bh200\b does not match "gh200" (GH200's own H100/H200 differs) nor "h20";
// \bb200\b does not match "gb200"; \bl40s\b does not match "l40".
const RULES: readonly Rule[] = [
  {
    // H100: NVL and PCIe are decided before SXM so neither ever falls through to the SXM entry.
    // The SXM part reports "NVIDIA H100 80GB HBM3"; a bare "H100" (no form factor) is not guessed.
    match: (n) => {
      if (!has(n, /\bh100\b/)) return undefined
      if (has(n, /\bnvl\b/)) return H100_NVL
      if (has(n, /\bpcie\b/)) return H100_PCIE
      if (has(n, /\bsxm\d*\b/) || has(n, /\b\d+ ?gb hbm3\b/)) return H100_SXM
      return undefined
    },
  },
  {
    // "NVIDIA H200" is the SXM part. H200 NVL (600 W PCIe card, lower clocks) is not in the table.
    match: (n) => (has(n, /\bh200\b/) && !has(n, /\bnvl\b|\bpcie\b/) ? H200_SXM : undefined),
  },
  {
    // "NVIDIA H800" is the SXM part; H800 PCIe (51 TFLOPS FP32, 2 TB/s) is not in the table.
    match: (n) => (has(n, /\bh800\b/) && !has(n, /\bnvl\b|\bpcie\b/) ? H800_SXM : undefined),
  },
  {
    // "A100-SXM4-80GB", "A100-SXM4-40GB", "A100-PCIE-40GB", "A100 80GB PCIe". Without a memory size the
    // bandwidth is unknown (1,555 vs 1,935/2,039 GB/s), so no match.
    match: (n) => {
      if (!has(n, /\ba100\b/)) return undefined
      const pcie = has(n, /\bpcie\b/)
      if (has(n, /\b80 ?gb\b/)) return pcie ? A100_PCIE_80 : A100_SXM_80
      if (has(n, /\b40 ?gb\b/)) return pcie ? A100_PCIE_40 : A100_SXM_40
      return undefined
    },
  },
  { match: (n) => (has(n, /\bl40s\b/) ? L40S : undefined) },
  {
    // Not the RTX 4090 D (fewer SMs) nor the laptop GPU (a different chip).
    match: (n) =>
      has(n, /\brtx 4090\b/) && !has(n, /\b4090 ?d\b/) && !has(n, /\blaptop\b|\bmobile\b/) ? RTX_4090 : undefined,
  },
  {
    // Only the 600 W Workstation Edition; Max-Q (300 W) and Server Edition have other clocks.
    match: (n) =>
      has(n, /\brtx pro 6000\b/) && has(n, /\bblackwell\b/) && has(n, /\bworkstation\b/) && !has(n, /\bmax-?q\b/)
        ? RTX_PRO_6000_BLACKWELL
        : undefined,
  },
  { match: (n) => (has(n, /\bb200\b/) ? B200 : undefined) },
]

/**
 * The datasheet peaks for the GPU whose CUDA device name is `deviceName`, e.g. "NVIDIA H100 80GB HBM3".
 * Case-insensitive. Undefined for a GPU not in the table or a name too vague to tell variants apart (the
 * caller then falls back to measured ceilings).
 */
export function peaksFor(deviceName: string): GpuPeaks | undefined {
  const name = normalize(deviceName)
  if (name === '') return undefined
  for (const rule of RULES) {
    const peaks = rule.match(name)
    if (peaks !== undefined) return peaks
  }
  return undefined
}
