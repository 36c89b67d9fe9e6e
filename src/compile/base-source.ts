// The base version of a solution for paired A/B runs (docs/ci-gate.md, "Paired A/B"): the repository's tree as it was
// at a git ref, taken with `git archive` (the working tree, the index and the checkout are not touched) into the cache,
// once per commit. The whole tree, because a solution reaches beyond its folder: a header two folders up, a TypeScript
// module's relative imports; each is then the base's version of that file.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The base solution's path in the cache, and where any other path of the repository is in that copy (itself when it
 * did not exist at the ref); or why there is none at that ref (a solution added since then).
 */
export type BaseSource = { file: string; commit: string; at: (current: string) => string } | { missing: string }

function git(cwd: string, args: string[]): { ok: boolean; stdout: string; stderr: string } {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 })
  if (run.error) throw new Error(`paired A/B runs against a git ref need git, which could not run: ${run.error.message}`)
  return { ok: run.status === 0, stdout: run.stdout.trim(), stderr: run.stderr.trim() }
}

/**
 * `file` as it was at git `ref`, in a copy of the repository's tree at that ref under `cacheDir`. Throws when the file
 * is not in a git repository or the ref is unknown; a file that did not exist at the ref is `missing`.
 */
export function solutionAtRef(file: string, ref: string, cacheDir: string): BaseSource {
  const folder = path.dirname(file)
  const top = git(folder, ['rev-parse', '--show-toplevel'])
  if (!top.ok) throw new Error(`compare ref '${ref}': ${file} is not in a git repository (${top.stderr})`)
  const commit = git(top.stdout, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
  if (!commit.ok) throw new Error(`compare ref '${ref}' is not a commit of ${top.stdout} (fetch it first, e.g. git fetch origin main)`)
  const relative = (p: string) => path.relative(top.stdout, fs.realpathSync(p)).split(path.sep).join('/')
  const solution = relative(file)
  const short = commit.stdout.slice(0, 10)
  if (!git(top.stdout, ['cat-file', '-e', `${commit.stdout}:${solution}`]).ok) {
    return { missing: `${solution} does not exist at ${ref} (${short})` }
  }
  const key = crypto.createHash('sha256').update(JSON.stringify([top.stdout, commit.stdout])).digest('hex').slice(0, 16)
  const dest = path.join(cacheDir, 'compare', key)
  if (!fs.existsSync(dest)) extract(top.stdout, commit.stdout, dest)
  const at = (current: string) => {
    const copy = path.join(dest, relative(current))
    return fs.existsSync(copy) ? copy : current
  }
  return { file: path.join(dest, solution), commit: commit.stdout, at }
}

/** `git archive` of the tree at `commit`, unpacked into a fresh folder that is then renamed to `dest` (another worker may win). */
function extract(top: string, commit: string, dest: string): void {
  const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: top, maxBuffer: 2 ** 31 })
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString().trim()}`)
  fs.mkdirSync(path.dirname(dest), { recursive: true })
  const staging = fs.mkdtempSync(`${dest}.`)
  const untar = spawnSync('tar', ['-x', '-C', staging], { input: archive.stdout })
  if (untar.status !== 0) throw new Error(`unpacking the base at ${commit} failed: ${untar.stderr.toString().trim()}`)
  try {
    fs.renameSync(staging, dest)
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true })
    if (!fs.existsSync(dest)) throw error
  }
}
