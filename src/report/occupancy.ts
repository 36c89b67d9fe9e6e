// Theoretical occupancy of a kernel launch, by the CUDA occupancy rules (those of the toolkit's cuda_occupancy.h and
// ncu's Occupancy section): the blocks one SM can hold are the fewest that its warps, registers, shared memory and
// block slots allow, and occupancy is their warps against the SM's maximum. Pure: the launch and the SM's limits
// come in.
import type { KernelLaunch, SmLimits } from '../shared/counters.js'

export type OccupancyLimiter = 'warps' | 'registers' | 'shared memory' | 'blocks'

export interface TheoreticalOccupancy {
  /** ncu's "Theoretical Occupancy" (sm__maximum_warps_per_active_cycle_pct), %. */
  pct: number
  blocksPerSm: number
  /** The limit that allows the fewest blocks (the first in this order on a tie: warps, registers, shared memory, blocks). */
  limiter: OccupancyLimiter
  /** Blocks per SM each limit allows (Infinity where it allows any number). */
  limits: Readonly<Record<OccupancyLimiter, number>>
  /** ncu's launch__waves_per_multiprocessor: the grid's blocks over those all SMs hold at once. */
  waves: number
}

// Allocation units of the CUDA occupancy rules: registers are given to a warp in 256s and split over 4 SM
// sub-partitions on every architecture this project builds for; shared memory in 128-byte steps from sm_80
// (256 before); no thread may have more than 255 registers.
const REGISTER_GRANULARITY = 256
const SUB_PARTITIONS = 4
const MAX_REGISTERS_PER_THREAD = 255
const sharedGranularity = (computeCapability: string) => (Number.parseInt(computeCapability, 10) >= 8 ? 128 : 256)

const roundUp = (value: number, step: number) => Math.ceil(value / step) * step
const product = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1)

/** The theoretical occupancy of `launch` on an SM with `limits`; 0% where the block cannot run at all. */
export function theoreticalOccupancy(launch: KernelLaunch, limits: SmLimits): TheoreticalOccupancy {
  const threads = product(launch.block)
  const warpsPerBlock = Math.ceil(threads / limits.warpSize)
  const maxWarpsPerSm = limits.maxThreadsPerSm / limits.warpSize

  const warps = threads > limits.maxThreadsPerBlock ? 0 : Math.floor(maxWarpsPerSm / warpsPerBlock)

  const registersPerWarp = roundUp(launch.registersPerThread * limits.warpSize, REGISTER_GRANULARITY)
  const fitsRegisters =
    launch.registersPerThread <= MAX_REGISTERS_PER_THREAD &&
    registersPerWarp * roundUp(warpsPerBlock, SUB_PARTITIONS) <= limits.registersPerBlock
  const warpsPerSubPartition = registersPerWarp === 0 ? Infinity : Math.floor(limits.registersPerSm / SUB_PARTITIONS / registersPerWarp)
  const registers = !fitsRegisters ? 0 : Math.floor((warpsPerSubPartition * SUB_PARTITIONS) / warpsPerBlock)

  const sharedPerBlock = roundUp(
    launch.staticSharedBytes + launch.dynamicSharedBytes + limits.reservedSharedBytesPerBlock,
    sharedGranularity(limits.computeCapability),
  )
  const sharedMemory = sharedPerBlock === 0 ? Infinity : Math.floor(limits.sharedBytesPerSm / sharedPerBlock)

  const all: Record<OccupancyLimiter, number> = { warps, registers, 'shared memory': sharedMemory, blocks: limits.maxBlocksPerSm }
  const limiter = (Object.keys(all) as OccupancyLimiter[]).reduce((a, b) => (all[b] < all[a] ? b : a))
  const blocksPerSm = all[limiter]
  const gridBlocks = product(launch.grid)
  return {
    pct: (100 * blocksPerSm * warpsPerBlock) / maxWarpsPerSm,
    blocksPerSm,
    limiter,
    limits: all,
    waves: blocksPerSm === 0 ? Infinity : gridBlocks / (blocksPerSm * limits.multiProcessors),
  }
}
