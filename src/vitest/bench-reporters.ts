// Vitest's built-in reporters under `vitest bench` with Vitest 4.1, and blob reports for a run sharded over several
// hosts: each runs `vitest bench --shard=i/M --reporter=blob`, then `vitest bench --merge-reports` replays their
// results through the reporters. Vitest 4.1 has two gaps there, filled here (Vitest 5 has neither):
// - `vitest bench` builds its reporters from the benchmark ones (`default`, `verbose`, or a module to import), so
//   `--reporter=json` (or blob, junit, dot…) fails to import a module named 'json'. Such a name is replaced by
//   Vitest's own reporter of that name, which reports a kernelBench as the test it is.
// - `--merge-reports` looks a file's results up under an id it computes from the file's path relative to this
//   host's root, where the blob holds the file's absolute path on the host that ran it: blobs recorded in another
//   directory (another host's checkout) reach the reporters as no files at all, and the merge fails. Here the
//   lookup uses the id the blob recorded, as Vitest 5 does.
import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'flatted'
import * as vitestNode from 'vitest/node'
import type { TestProject, TestSpecification, Vitest } from 'vitest/node'

const prepared = new WeakSet<Vitest>()

/**
 * The benchmark reporters with each name of a built-in test reporter that `vitest bench` does not know (json, blob,
 * junit…) replaced by that reporter; its options are Vitest's own (`--outputFile`).
 */
export function withTestReporters(reporters: readonly unknown[]): unknown[] {
  // Read from the namespace: Vitest 5, which never calls this, exports no BenchmarkReportsMap.
  const { BenchmarkReportsMap, ReportersMap } = vitestNode
  return reporters.map((reporter) =>
    typeof reporter === 'string' && !(reporter in BenchmarkReportsMap) && reporter in ReportersMap
      ? new ReportersMap[reporter as keyof typeof ReportersMap]({})
      : reporter,
  )
}

/** Makes Vitest's built-in reporters and `--merge-reports` work for `vitest bench` under Vitest 4.1; once per Vitest instance. */
export function prepareBenchReporters(vitest: Vitest): void {
  if (prepared.has(vitest)) return
  prepared.add(vitest)
  const benchmark = vitest.config.benchmark
  if (vitest.mode === 'benchmark' && benchmark) benchmark.reporters = withTestReporters(benchmark.reporters as unknown[]) as never
  if (vitest.config.mergeReports) useRecordedFileIds(vitest, vitest.config.mergeReports)
}

/** A file task as a Vitest 4.1 blob holds it: the blob is its version, then the file tasks, then more. */
interface RecordedFile {
  id: string
  filepath: string
  projectName?: string
  pool?: string
}

const fileKey = (project: string, filepath: string, pool: string | undefined) => JSON.stringify([project, filepath, pool ?? ''])

/** The id of every file task in the blobs of `dir`, by project, path and pool; undefined when `dir` is not all blobs. */
function recordedFileIds(dir: string): Map<string, string> | undefined {
  try {
    const files = fs.readdirSync(dir).flatMap((name) => (parse(fs.readFileSync(path.join(dir, name), 'utf8')) as [string, RecordedFile[]])[1])
    return new Map(files.map((file) => [fileKey(file.projectName ?? '', file.filepath, file.pool), file.id]))
  } catch {
    return undefined // Vitest's own merge says what is wrong with the folder
  }
}

/** Has every project give the specification of a merged file the id its blob recorded. */
function useRecordedFileIds(vitest: Vitest, dir: string): void {
  const ids = recordedFileIds(path.resolve(dir))
  if (!ids) return
  for (const project of vitest.projects) {
    const create: TestProject['createSpecification'] = project.createSpecification.bind(project)
    project.createSpecification = (moduleId, locations, pool) => {
      const specification: TestSpecification = create(moduleId, locations, pool)
      const id = ids.get(fileKey(project.name, moduleId, pool))
      return id === undefined ? specification : Object.assign(specification, { taskId: id })
    }
  }
}
