// Files other runs and tools read (baselines, reports) are written whole or not at all: a private temporary file,
// flushed to disk, then renamed over the target, so an interrupted run never leaves a half-written file.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export function writeFileAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`
  try {
    const fd = fs.openSync(tmp, 'wx')
    try {
      fs.writeFileSync(fd, text)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(tmp, file)
  } catch (error) {
    fs.rmSync(tmp, { force: true })
    throw error
  }
}
