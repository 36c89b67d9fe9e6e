// Whether a solution library reaches for CUPTI. CUPTI belongs to the harness for a device host's whole life: it times
// `cupti` runs, audits `events` batches, and holds CUPTI's only callback subscriber, so that no solution can hook the
// harness's own CUDA calls (queue work in front of a window, rewrite what a timer returns). A library that names
// CUPTI's API or its library (linked, or looked up with dlopen and dlsym) is refused before it is loaded, with the
// names it used. One that hides the names still cannot subscribe; it is only not refused by name.
import fs from 'node:fs'

/** CUPTI's entry points (cuptiSubscribe, cuptiActivityEnable, …) and its library's file names. */
const CUPTI_NAME = /(?:cupti[A-Z]\w*|libcupti(?:\.so[.\d]*)?)/g

/** The CUPTI names a compiled library holds (symbols it imports, strings it passes to dlopen or dlsym), sorted. */
export function cuptiNamesIn(library: string): string[] {
  const bytes = fs.readFileSync(library).toString('latin1')
  return [...new Set(bytes.match(CUPTI_NAME) ?? [])].sort()
}
