// Many .cu files compiled against their prototypes in one nvcc run: nvcc takes about 5 s for any file on a slow core,
// most of it in the CUDA headers, so the compile tests put many files in one translation unit. Each file sits in a
// namespace of its own after the headers the plugin's wrapper includes in front of every solution, with its quoted
// headers inlined (they are `#pragma once`: included once for the whole batch, all but the first file would lack
// them), its system headers hoisted in front, `#line` marks keeping nvcc's diagnostics at the file's own lines, and
// its entry point and other C-linkage names renamed (C linkage ignores namespaces). As the plugin's wrapper does, the
// batch refuses an entry point without C linkage, or of a type none of the prototype's spellings has, and takes its
// address, so that the library fails to link without a definition.
import fs from 'node:fs'
import path from 'node:path'
import { compile, CompileError, LinkError, spellingIncludes, WRAPPER_INCLUDES, type CompiledLibrary } from '../../src/compile/nvcc.js'

export interface BatchUnit {
  /** What the file is compiled as (the problem and dtype), written above it in the batch. */
  label: string
  /** Absolute path of the .cu file. */
  file: string
  /** The C prototype of its entry point, then the other spellings of it the file may use instead (see compile). */
  prototypes: readonly string[]
  /** Preprocessor definitions for this file alone (a reference's KB_T). */
  defines?: Readonly<Record<string, string>>
}

/** A unit with its own build (the plugin's), to fall back on where its batch fails. */
export interface FallbackUnit extends BatchUnit {
  alone: () => Promise<CompiledLibrary>
}

export interface BatchSettings {
  arch: string
  cacheDir: string
}

const QUOTED_INCLUDE = /^\s*#\s*include\s*"([^"]+)"/
const SYSTEM_INCLUDE = /^\s*#\s*include\s*<([^>]+)>/
const PRAGMA_ONCE = /^\s*#\s*pragma\s+once\b/
const DEFINE = /^\s*#\s*define\s+(\w+)/gm
// The name before the parameters; a name of two leading underscores is an attribute's (__launch_bounds__).
const C_LINKAGE_NAME = /extern\s+"C"\s+[^;{(]*?\b(\w+)\s*\(/g
const PROTOTYPE = /^void\s+(\w+)\s*\(/
const WRAPPER_HEADERS = new Set(WRAPPER_INCLUDES.map((line) => SYSTEM_INCLUDE.exec(line)![1]!))

interface ExpandedUnit {
  /** The file with its quoted headers inlined and its system includes blanked, lines kept by `#line`. */
  text: string
  /** System headers it includes beyond the wrapper's, sorted. */
  systemHeaders: readonly string[]
  /** The file and the headers inlined in it. */
  files: readonly string[]
}

/** `file` as the preprocessor would read it alone: each quoted header inlined once, where it is first included. */
function expand(file: string, seen = new Set<string>([file])): ExpandedUnit {
  const systemHeaders = new Set<string>()
  const files = [file]
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const text = lines.map((line, index) => {
    const system = SYSTEM_INCLUDE.exec(line)?.[1]
    if (system !== undefined) {
      if (!WRAPPER_HEADERS.has(system)) systemHeaders.add(system)
      return ''
    }
    if (PRAGMA_ONCE.test(line)) return ''
    const quoted = QUOTED_INCLUDE.exec(line)?.[1]
    if (quoted === undefined) return line
    const header = path.resolve(path.dirname(file), quoted)
    // Left to the compiler, which reports it at this line.
    if (!fs.existsSync(header)) return line
    if (seen.has(header)) return ''
    seen.add(header)
    const inner = expand(header, seen)
    inner.systemHeaders.forEach((h) => systemHeaders.add(h))
    files.push(...inner.files)
    return [`#line 1 ${JSON.stringify(header)}`, inner.text, `#line ${index + 2} ${JSON.stringify(file)}`].join('\n')
  })
  return { text: text.join('\n'), systemHeaders: [...systemHeaders].sort(), files }
}

/**
 * `units` in batches of at most `size`, each batch of files that include the same system headers (and whose prototype
 * spellings need the same ones): hoisted in front of the batch, a header another file needs must not reach a file
 * that does not include it.
 */
export function groupBatches<T extends BatchUnit>(units: readonly T[], size: number): T[][] {
  const groups = new Map<string, T[]>()
  for (const unit of units) {
    const key = [...expand(unit.file).systemHeaders, ...unitSpellingIncludes(unit)].join('\n')
    groups.set(key, [...(groups.get(key) ?? []), unit])
  }
  return [...groups.values()].flatMap((group) => Array.from({ length: Math.ceil(group.length / size) }, (_, i) => group.slice(i * size, (i + 1) * size)))
}

/** The headers the unit's prototype spellings need beyond the wrapper's, as the plugin's wrapper adds them. */
function unitSpellingIncludes(unit: BatchUnit): string[] {
  return [...new Set(unit.prototypes.flatMap(spellingIncludes))]
}

/** The translation unit of the batch, to be written to `batchFile` (its `#line` marks name it). */
export function batchSource(batchFile: string, units: readonly BatchUnit[]): string {
  const expanded = units.map((unit) => expand(unit.file))
  const parts = [
    ...WRAPPER_INCLUDES,
    ...new Set(units.flatMap(unitSpellingIncludes)),
    ...[...new Set(expanded.flatMap((e) => e.systemHeaders))].map((h) => `#include <${h}>`),
    // std::is_same, without <type_traits>, which a file that does not include it must not see.
    'template <class A, class B> struct kb_same { static constexpr bool value = false; };',
    'template <class A> struct kb_same<A, A> { static constexpr bool value = true; };',
  ]
  units.forEach((unit, i) => {
    const { text } = expanded[i]!
    const [prototype] = unit.prototypes
    const entry = PROTOTYPE.exec(prototype ?? '')?.[1]
    if (prototype === undefined || entry === undefined) throw new Error(`${unit.label}: bad prototype '${prototype}'`)
    const prefix = `kb_unit_${i}_`
    const renamed = new Set([entry, ...[...text.matchAll(C_LINKAGE_NAME)].map((m) => m[1]!).filter((name) => !name.startsWith('__'))])
    const defined = new Set([...text.matchAll(DEFINE)].map((m) => m[1]!))
    parts.push(
      `// ${unit.label}`,
      `namespace kb_unit_${i} {`,
      ...Object.entries(unit.defines ?? {}).map(([name, value]) => `#define ${name} ${value}`),
      ...[...renamed].map((name) => `#define ${name} ${prefix}${name}`),
      `#line 1 ${JSON.stringify(unit.file)}`,
      text,
    )
    // Back to the batch's own lines: the mark's next line is the line after the mark's.
    parts.push(`#line ${parts.join('\n').split('\n').length + 2} ${JSON.stringify(batchFile)}`)
    const types = unit.prototypes.map((spelling) => spelling.replace(PROTOTYPE, 'void('))
    parts.push(
      // An error where the entry point has C++ linkage, as the wrapper's declaration is.
      `extern "C" decltype(${prefix}${entry}) ${prefix}${entry};`,
      `static_assert(${types.map((type) => `kb_same<decltype(${prefix}${entry}), ${type}>::value`).join(' || ')}, ${JSON.stringify(`${prefix}${entry} does not match its prototype ${prototype}`)});`,
      ...[...new Set([...Object.keys(unit.defines ?? {}), ...renamed, ...defined])].map((name) => `#undef ${name}`),
      '}',
      `__attribute__((used)) static void* ${prefix}address = (void*)&kb_unit_${i}::${prefix}${entry};`,
    )
  })
  return parts.join('\n') + '\n'
}

/** Writes the batch to `batchFile` and compiles it (or finds it in the cache, keyed by its text like any source). */
export function compileBatch(batchFile: string, units: readonly BatchUnit[], settings: BatchSettings): Promise<CompiledLibrary> {
  fs.mkdirSync(path.dirname(batchFile), { recursive: true })
  fs.writeFileSync(batchFile, batchSource(batchFile, units))
  return compile({ source: batchFile, ...settings })
}

/** The units that the error lines of a failed batch name: by their renamed names, or by a file read into them. */
function culprits<T extends BatchUnit>(error: unknown, batch: readonly T[]): Set<T> {
  const log = error instanceof CompileError || error instanceof LinkError ? error.log : ''
  const errorLines = log.split('\n').filter((line) => /error/i.test(line))
  const named = new Set(errorLines.flatMap((line) => [...line.matchAll(/kb_unit_(\d+)_/g)].map((m) => batch[Number(m[1])]!)))
  batch.forEach((unit) => {
    const files = expand(unit.file).files
    if (errorLines.some((line) => files.some((file) => line.includes(`${file}(`) || line.includes(`${file}:`)))) named.add(unit)
  })
  return named
}

type Check = () => Promise<CompiledLibrary>

/**
 * Each unit's check: the library of its batch; where the batch fails, the units its errors name are compiled alone
 * (by the plugin's own build, whose error is the one a user would see, at the file's own line) and the others batched
 * again. Where the errors name no unit, or all of them, every unit is compiled alone.
 */
async function batchChecks<T extends FallbackUnit>(batchFile: string, batch: readonly T[], settings: BatchSettings): Promise<Map<T, Check>> {
  try {
    const library = await compileBatch(batchFile, batch, settings)
    return new Map(batch.map((unit) => [unit, async () => library]))
  } catch (error) {
    const named = culprits(error, batch)
    const rest = batch.filter((unit) => !named.has(unit))
    const checks = named.size > 0 && rest.length > 0 ? await batchChecks(batchFile, rest, settings) : new Map<T, Check>()
    const aloneUnits = batch.filter((unit) => !checks.has(unit))
    console.warn(`${path.basename(batchFile)} did not compile: compiling alone ${aloneUnits.map((unit) => unit.label).join(', ')}`)
    for (const unit of aloneUnits) checks.set(unit, () => unit.alone())
    return checks
  }
}

/**
 * A check per unit (see batchChecks), the units grouped by groupBatches. Each batch is written to `folder` and
 * compiled once, when one of its checks first runs.
 */
export function batchedChecks<T extends FallbackUnit>(units: readonly T[], size: number, folder: string, settings: BatchSettings): Map<T, Check> {
  const checks = new Map<T, Check>()
  groupBatches(units, size).forEach((batch, i) => {
    let batchResult: Promise<Map<T, Check>> | undefined
    for (const unit of batch) {
      checks.set(unit, async () => {
        batchResult ??= batchChecks(path.join(folder, `batch-${i}.cu`), batch, settings)
        return (await batchResult).get(unit)!()
      })
    }
  })
  return checks
}
