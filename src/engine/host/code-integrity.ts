// The code that takes a solution's time is the code the harness loaded: a solution runs in the device host's process
// and could rewrite it to fabricate its own number (a patched cudaEventElapsedTime, a hooked statistics function).
// Two checks, against what the host had before any solution ran:
// - native code: patching a loaded library's code writes to its executable pages, which turns them into private
//   anonymous copies of the file's pages (copy-on-write); Linux counts those per mapping in /proc/self/smaps
//   ("Anonymous"; "Private_Dirty" would also count a file just written, such as a freshly compiled library). No
//   executable mapping of a file other than the solution's own library may gain any.
// - JavaScript: the built-in functions the harness calls (Array, Math, typed arrays, performance, process.send) must
//   be the same function objects, so a TypeScript solution cannot replace them. (koffi's exports replace themselves
//   when it first loads its native part; the harness's bindings of CUDA are frozen objects instead.)
// What stays possible for a determined native solution is said in docs/defences.md.
import fs from 'node:fs'

/** A solution rewrote code or built-ins of the process that times it; the device host is replaced after it. */
export class TamperingDetected extends Error {
  override name = 'Tampering'
}

export interface CodeMapping {
  /** The mapped file. */
  file: string
  /** Where it is mapped: one file has several executable mappings. */
  start: string
  /** Anonymous, in kB: pages of the file this process has written to since it mapped them. */
  writtenKb: number
}

const MAPPING_HEADER = /^([0-9a-f]+)-[0-9a-f]+ ([r-][w-][x-][ps]) [0-9a-f]+ \S+ \d+\s+(\/.*)$/

/** The executable mappings of files in the text of /proc/<pid>/smaps. */
export function executableMappings(smaps: string): CodeMapping[] {
  const mappings: CodeMapping[] = []
  let current: CodeMapping | undefined
  for (const line of smaps.split('\n')) {
    const header = MAPPING_HEADER.exec(line)
    if (header) {
      current = header[2]!.includes('x') ? { file: header[3]!.replace(/ \(deleted\)$/, ''), start: header[1]!, writtenKb: 0 } : undefined
      if (current) mappings.push(current)
    } else if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      current = undefined // an anonymous mapping (JIT code, heaps): not a file's code
    } else if (current && line.startsWith('Anonymous:')) {
      current.writtenKb = Number(/(\d+)/.exec(line)![1])
    }
  }
  return mappings
}

/**
 * The files whose code was written since `before` (keyed by file and address), leaving out `own` (the solution's
 * libraries, whose own code is theirs to change): a mapping with more written pages than it had, or a new one with any.
 */
export function patchedFiles(before: readonly CodeMapping[], now: readonly CodeMapping[], own: ReadonlySet<string>): string[] {
  const writtenBefore = new Map(before.map((m) => [`${m.file}@${m.start}`, m.writtenKb]))
  const patched = now.filter((m) => !own.has(m.file) && m.writtenKb > (writtenBefore.get(`${m.file}@${m.start}`) ?? 0))
  return [...new Set(patched.map((m) => m.file))]
}

/** An object whose functions are checked: all its own properties, or only `keys`. */
type BuiltIn = [name: string, object: object, keys?: readonly string[]]

/**
 * The built-in objects whose functions the harness's timing, statistics and reporting call. Of `process`, only the
 * functions the host uses: some of its other properties are lazy and replace themselves when first read.
 */
function builtIns(): BuiltIn[] {
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as object
  return [
    ['Object', Object],
    ['Object.prototype', Object.prototype],
    ['Function.prototype', Function.prototype],
    ['Array', Array],
    ['Array.prototype', Array.prototype],
    ['TypedArray.prototype', typedArray],
    ['Float64Array.prototype', Float64Array.prototype],
    ['Float32Array.prototype', Float32Array.prototype],
    ['Math', Math],
    ['Number', Number],
    ['Number.prototype', Number.prototype],
    ['BigInt', BigInt],
    ['JSON', JSON],
    ['Reflect', Reflect],
    ['Map.prototype', Map.prototype],
    ['Set.prototype', Set.prototype],
    ['Promise', Promise],
    ['Promise.prototype', Promise.prototype],
    ['String.prototype', String.prototype],
    ['Buffer', Buffer],
    ['Buffer.prototype', Buffer.prototype],
    ['performance', performance],
    ['Performance.prototype', Object.getPrototypeOf(performance) as object],
    ['process', process, ['send', 'hrtime', 'nextTick', 'emit', 'on', 'once', 'exit']],
  ]
}

/** Every function reachable as a property (value, getter or setter) of the built-ins, by name. */
export function builtInFunctions(objects: readonly BuiltIn[] = builtIns()): Map<string, unknown> {
  const functions = new Map<string, unknown>()
  for (const [name, object, keys] of objects) {
    for (const key of keys ?? Reflect.ownKeys(object)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(object, key)
      if (!descriptor) continue
      const label = `${name}.${String(key)}`
      for (const [part, fn] of [['', descriptor.value], [' (getter)', descriptor.get], [' (setter)', descriptor.set]] as const) {
        if (typeof fn === 'function') functions.set(label + part, fn)
      }
    }
  }
  return functions
}

/** The names whose function is not the one recorded in `before` (replaced or deleted). */
export function replacedFunctions(before: ReadonlyMap<string, unknown>, now: ReadonlyMap<string, unknown>): string[] {
  return [...before].filter(([name, fn]) => now.get(name) !== fn).map(([name]) => name)
}

/** This process's executable file mappings; none where there is no procfs (not Linux), so the check is off there. */
function ownCode(): CodeMapping[] {
  const smaps = '/proc/self/smaps'
  return fs.existsSync(smaps) ? executableMappings(fs.readFileSync(smaps, 'utf8')) : []
}

const SHOWN = 5
const list = (names: readonly string[]) => names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '')

/** What the process had before any solution ran, and the check of what it has now. */
export class CodeIntegrity {
  private readonly code = ownCode()
  private readonly functions = builtInFunctions()
  /** The solutions' own libraries: their code is theirs. */
  private readonly own = new Set<string>()

  allowOwnCode(library: string): void {
    this.own.add(fs.realpathSync(library))
  }

  /** Throws TamperingDetected when code or built-ins changed; `who` ran since the last check, `when` is where. */
  check(who: string, when: string): void {
    const findings: string[] = []
    const patched = patchedFiles(this.code, ownCode(), this.own)
    if (patched.length > 0) findings.push(`the machine code of ${list(patched)} was written to (a patched or hooked function)`)
    const replaced = replacedFunctions(this.functions, builtInFunctions())
    if (replaced.length > 0) findings.push(`built-in functions were replaced: ${list(replaced)}`)
    if (findings.length === 0) return
    throw new TamperingDetected(
      `${who} changed the code that times it (found ${when}): ${findings.join('; ')}. A solution must not patch the ` +
        "harness, the CUDA libraries or JavaScript's built-ins; its number is refused.",
    )
  }
}
