// The documentation cannot go stale unnoticed: the README stays a front page (at most 300 lines), every relative link
// of the README and of docs/ reaches a file (and a heading, where it names one), the commands it shows exist, its quick
// start is the one .ci/compat runs in a fresh project, and docs/options.md names every KERNELBENCH_ variable src/ reads.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')
const README = read('README.md')
const DOCS = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** The text outside fenced code blocks: a link or heading inside one is an example, not part of the page. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '')
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, '-' and '_' kept), spaces to '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** Every anchor a page has, numbered as GitHub numbers repeated headings ('x', 'x-1', …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const all = new Set<string>()
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    all.add(count === 0 ? base : `${base}-${count}`)
  }
  return all
}

/** The shell lines of a page's ```sh blocks, comments dropped. */
function shellLines(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap(([, block]) =>
    block!
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
}

/** The files the README's quick start writes with `cat > FILE <<'EOF'`, and what it writes. */
function heredocs(markdown: string): Map<string, string> {
  return new Map([...markdown.matchAll(/^cat > (\S+) <<'EOF'\n([\s\S]*?)^EOF$/gm)].map(([, file, content]) => [file!, content!]))
}

describe('the README', () => {
  it('is a front page: at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300)
  })

  it('explains at first use the terms a newcomer meets', () => {
    for (const term of ['CUDA kernel', 'nvcc', 'koffi', 'roofline', 'SOL', 'Tensara', 'sm_90a']) {
      expect(prose(README), term).toContain(`**${term}**`)
    }
  })
})

describe('links', () => {
  it.each(DOCS)('every relative link of %s reaches a file, and the heading it names', (page) => {
    const broken: string[] = []
    const text = prose(read(page))
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue
      const [file, anchor] = target!.split('#') as [string, string | undefined]
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
      if (!fs.existsSync(path.join(root, resolved))) {
        broken.push(`${target}: no file ${resolved}`)
        continue
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${resolved}`)
      }
    }
    expect(broken).toEqual([])
  })
})

describe('the commands the README shows', () => {
  const lines = DOCS.flatMap((page) => shellLines(read(page)))

  it('name npm scripts that package.json has', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts)
    const used = lines.flatMap((line) => [...line.matchAll(/\bnpm (?:run (\S+)|(test)\b)/g)].map((m) => m[1] ?? m[2]!))
    expect(used.length).toBeGreaterThan(0)
    for (const script of used) expect(scripts, `npm run ${script}`).toContain(script)
  })

  it('name subcommands that the vitest-kernel-bench command has', () => {
    // The CLI's usage text lists one `vitest-kernel-bench <command>` line per command.
    const commands = new Set([...read('src/cli/cli.ts').matchAll(/^ {2}vitest-kernel-bench (\w+)/gm)].map((m) => m[1]!))
    const used = lines.flatMap((line) => [...line.matchAll(/\bvitest-kernel-bench (\w+)/g)].map((m) => m[1]!))
    expect(used).toContain('init')
    for (const command of used) expect([...commands], `vitest-kernel-bench ${command}`).toContain(command)
    const listed = /lists the command's subcommands: (.+)\.$/m.exec(README)?.[1]
    expect(listed?.match(/`(\w+)`/g)?.map((c) => c.slice(1, -1))).toEqual([...commands])
  })
})

describe("the README's quick start", () => {
  const start = README.slice(README.indexOf('## Quick start'), README.indexOf('## Your own kernel'))
  const compat = read('.ci/compat')
  const steps = shellLines(start)

  it('writes the files of the fresh project .ci/compat runs (tests/compat/project), as they are there', () => {
    const files = heredocs(start)
    // The project's own copy opens with a comment that says where it comes from; the README shows the rest.
    const withoutHeader = (text: string) => text.replace(/^(\/\/.*\n)+/, '')
    expect([...files.keys()]).toEqual(['vitest.config.ts', 'kernels/sgemm.bench.ts'])
    for (const [file, content] of files) expect(content, file).toBe(withoutHeader(read(`tests/compat/project/${file}`)))
  })

  it('takes the steps .ci/compat takes: the same project setup, the same solution, a Vitest range CI runs', () => {
    for (const step of ['npm init -y', 'npm pkg set type=module', 'npx vitest run', 'npx vitest bench --run']) {
      expect(steps, step).toContain(step)
      expect(compat, step).toContain(step)
    }
    const solution = /cp "\$repo\/(\S+)" kernels\/sgemm\.cu/.exec(start)?.[1]
    expect(solution).toBeDefined()
    expect(compat).toContain(`cp "$repo/${solution}" "$project/kernels/sgemm.cu"`)
    const range = /npm install -D vitest@(\S+) "\$tarball"/.exec(start)?.[1]
    expect(read('.ci/run')).toContain(`.ci/compat "$tarball" '${range}'`)
  })
})

describe('docs/options.md', () => {
  it('names every KERNELBENCH_ environment variable that src/ reads', () => {
    const sources = fs
      .readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    const variables = new Set(sources.flatMap((text) => [...text.matchAll(/\bKERNELBENCH_[A-Z_]+\b/g)].map((m) => m[0])))
    const options = read('docs/options.md')
    expect(variables.size).toBeGreaterThan(10)
    expect([...variables].filter((variable) => !options.includes(`\`${variable}`))).toEqual([])
  })
})
