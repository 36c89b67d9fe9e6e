// Whether two results files hold the same rows (bench file · bench · case): used to check that shards merged with
// --merge-reports give the single run's rows. Prints the counts and up to 20 rows missing from or extra in the second.
//   tsx scripts/compare-rows.ts <single.json> <merged.json>
import { rowKeys } from './results-file.js'

const [singleFile, mergedFile] = process.argv.slice(2)
if (!singleFile || !mergedFile) throw new Error('usage: compare-rows.ts <single.json> <merged.json>')
const single = rowKeys(singleFile)
const merged = rowKeys(mergedFile)
const missing = [...single].filter((row) => !merged.has(row))
const extra = [...merged].filter((row) => !single.has(row))
console.log(`rows: single run ${single.size}, merged shards ${merged.size}, missing ${missing.length}, extra ${extra.length}`)
for (const row of missing.slice(0, 20)) console.log(`  missing: ${row}`)
for (const row of extra.slice(0, Math.max(0, 20 - missing.length))) console.log(`  extra: ${row}`)
