// The machine's GPUs as the last run since boot found them, kept in the cache directory, so that a run on several GPUs
// starts the device hosts of every GPU at once instead of waiting for the first GPU's host to list them (about a
// second and a half on a 2 × H200 machine). Only a hint: the first host's own listing decides which GPUs a run uses.
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import type { GpuListing } from '../shared/messages.js'

/** What makes a kept listing this machine's: the same boot, and the same GPUs made visible to CUDA. */
interface ListingKey {
  bootId: string
  visibleDevices: string | null
}

function currentKey(env: NodeJS.ProcessEnv): ListingKey | undefined {
  try {
    return { bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), visibleDevices: env.CUDA_VISIBLE_DEVICES ?? null }
  } catch {
    return undefined // no boot id to tell a machine's reboots apart: nothing is kept
  }
}

const listingFile = (cacheDir: string) => path.join(cacheDir, 'gpu-listing.json')

/** The listing the last run since boot kept, with the same GPUs visible; undefined when there is none. */
export function readGpuListing(cacheDir: string, env: NodeJS.ProcessEnv = process.env): GpuListing[] | undefined {
  const key = currentKey(env)
  if (!key) return undefined
  try {
    const kept = JSON.parse(fs.readFileSync(listingFile(cacheDir), 'utf8')) as ListingKey & { gpus?: GpuListing[] }
    return kept.bootId === key.bootId && kept.visibleDevices === key.visibleDevices && Array.isArray(kept.gpus) ? kept.gpus : undefined
  } catch {
    return undefined
  }
}

/** Keeps the listing for later runs, unless it is the one kept already. */
export function keepGpuListing(cacheDir: string, gpus: readonly GpuListing[], env: NodeJS.ProcessEnv = process.env): void {
  const key = currentKey(env)
  if (!key || JSON.stringify(readGpuListing(cacheDir, env)) === JSON.stringify(gpus)) return
  try {
    writeFileAtomic(listingFile(cacheDir), JSON.stringify({ ...key, gpus }))
  } catch {
    // Not kept: the next run lists its GPUs before starting their hosts, as a first run does.
  }
}
