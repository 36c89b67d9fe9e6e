// The check that a solution did not rewrite the code that times it (src/engine/host/code-integrity.ts): the parsing and
// comparison on recorded text, then the real check in this process, against a library whose machine code another
// library patches in place (built with the C compiler: no GPU needed), and against a replaced built-in.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import koffi from 'koffi'
import { describe, expect, it } from 'vitest'
import { builtInFunctions, CodeIntegrity, executableMappings, patchedFiles, replacedFunctions, TamperingDetected } from '../../src/engine/host/code-integrity.js'
import { scratchFolder } from '../helpers/scratch.js'

const SMAPS = `00400000-00b6f000 r--p 00000000 fe:00 260689                             /usr/bin/node
Anonymous:         0 kB
00b6f000-00b71000 r-xp 0076f000 fe:00 260689                             /usr/bin/node
Size:                  8 kB
Anonymous:         4 kB
7f0ed4003000-7f0ed403f000 rwxp 00000000 00:00 0 
Anonymous:       240 kB
7f0efc764000-7f0efc8ba000 r-xp 00026000 fe:00 339380                     /usr/lib/x86_64-linux-gnu/libcudart.so.13.0.48
Anonymous:         0 kB
7f0efd000000-7f0efd001000 r-xp 00001000 fe:00 339381                     /tmp/gone.so (deleted)
Anonymous:         0 kB
`

describe('executableMappings', () => {
  it("reads each file's executable mappings and their written pages, leaving out data, anonymous code and the '(deleted)' mark", () => {
    expect(executableMappings(SMAPS)).toEqual([
      { file: '/usr/bin/node', start: '00b6f000', writtenKb: 4 },
      { file: '/usr/lib/x86_64-linux-gnu/libcudart.so.13.0.48', start: '7f0efc764000', writtenKb: 0 },
      { file: '/tmp/gone.so', start: '7f0efd000000', writtenKb: 0 },
    ])
  })
})

describe('patchedFiles', () => {
  const before = executableMappings(SMAPS)
  const cudart = '/usr/lib/x86_64-linux-gnu/libcudart.so.13.0.48'

  it('is empty while no mapping has more written pages than it had (code written from the start, like a relocated binary, stays allowed)', () => {
    expect(patchedFiles(before, before, new Set())).toEqual([])
  })

  it('names a library whose code pages were written since, or a library mapped since with written code', () => {
    const now = [...before.map((m) => (m.file === cudart ? { ...m, writtenKb: 4 } : m)), { file: '/lib/new.so', start: 'aa000', writtenKb: 8 }]
    expect(patchedFiles(before, now, new Set())).toEqual([cudart, '/lib/new.so'])
  })

  it("leaves out the solutions' own libraries", () => {
    const now = [{ file: '/cache/solution.so', start: 'bb000', writtenKb: 4 }]
    expect(patchedFiles(before, now, new Set(['/cache/solution.so']))).toEqual([])
  })
})

describe('replacedFunctions', () => {
  it('names functions replaced or deleted, by getter and setter too, and ignores added ones', () => {
    const object: Record<string, unknown> = { a() {}, b() {}, get c() { return 1 } }
    const before = builtInFunctions([['o', object]])
    expect([...before.keys()]).toEqual(['o.a', 'o.b', 'o.c (getter)'])
    object.a = () => {}
    delete object.b
    object.d = () => {}
    expect(replacedFunctions(before, builtInFunctions([['o', object]]))).toEqual(['o.a', 'o.b'])
  })

  it('only reads the keys it is given, when given some', () => {
    const object = { send() {}, lazy: 1 }
    expect([...builtInFunctions([['p', object, ['send', 'absent']]]).keys()]).toEqual(['p.send'])
  })
})

const cc = spawnSync('cc', ['--version']).status === 0
describe.skipIf(!cc || process.platform !== 'linux')(`CodeIntegrity in this process${cc ? '' : ' (skipped: no C compiler cc)'}`, () => {
  const scratch = scratchFolder('kb-code-integrity-')
  const build = (name: string, source: string) => {
    const file = path.join(scratch, `${name}.c`)
    fs.writeFileSync(file, source)
    const library = path.join(scratch, `lib${name}.so`)
    const run = spawnSync('cc', ['-O2', '-shared', '-fPIC', '-o', library, file], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    return library
  }
  // A function whose first bytes the patcher overwrites with `mov eax, 2; ret`, as an inline hook would.
  const victimPath = build('victim', 'int victim(void) { return 1; }\n')
  const patcherPath = build(
    'patcher',
    `#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int patch(const char* library, const char* symbol) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  unsigned char* target = handle ? (unsigned char*)dlsym(handle, symbol) : 0;
  if (!target) return 1;
  uintptr_t page = (uintptr_t)target & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
  if (mprotect((void*)page, 2 * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE | PROT_EXEC)) return 2;
  const unsigned char code[] = {0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3};
  memcpy(target, code, sizeof code);
  return mprotect((void*)page, 2 * sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC) ? 3 : 0;
}
`,
  )

  it('refuses once machine code of a loaded library was patched, and names the library; a solution may patch its own', () => {
    const victim = koffi.load(victimPath).func('int victim(void)')
    const integrity = new CodeIntegrity()
    expect(() => integrity.check('the solution', 'after the case')).not.toThrow()
    expect(koffi.load(patcherPath).func('int patch(const char *library, const char *symbol)')(victimPath, 'victim')).toBe(0)
    expect(victim()).toBe(2) // the patch took effect
    let thrown: unknown
    try {
      integrity.check('the solution', 'after timing the case')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(TamperingDetected)
    expect((thrown as Error).message).toBe(
      `the solution changed the code that times it (found after timing the case): the machine code of ${fs.realpathSync(victimPath)} ` +
        "was written to (a patched or hooked function). A solution must not patch the harness, the CUDA libraries or JavaScript's " +
        'built-ins; its number is refused.',
    )
    integrity.allowOwnCode(victimPath)
    expect(() => integrity.check('the solution', 'after the case')).not.toThrow()
  })

  it('refuses once a built-in the harness calls was replaced', () => {
    const integrity = new CodeIntegrity()
    const min = Math.min
    try {
      Math.min = (...values: number[]) => min(...values) / 2
      expect(() => integrity.check('the module patch.ts, when it was loaded,', 'right after loading it')).toThrow(
        'the module patch.ts, when it was loaded, changed the code that times it (found right after loading it): built-in functions were replaced: Math.min.',
      )
    } finally {
      Math.min = min
    }
    expect(() => integrity.check('the solution', 'after the case')).not.toThrow()
  })
})
