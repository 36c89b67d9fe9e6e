// "Did you mean": the known names closest to a misspelled one, for error messages. Pure.

/**
 * Edits that turn `a` into `b`: insert, delete or substitute a character, or swap two adjacent ones (the optimal
 * string alignment form of the Damerau–Levenshtein distance: 'flaot32' is one edit from 'float32', not two).
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = best
    }
  }
  return rows[a.length]![b.length]!
}

/** Case, '-', '_' and spaces aside: 'matrix_multiplication', 'Matrix-Multiplication' and 'matrixMultiplication' are one name. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '')
}

/**
 * The items with a spelling a few typos from `input` (at most a third of its length, and at least 2), closest first;
 * items equally close keep their order. Spellings are compared by nameKey.
 */
export function closest<T>(input: string, items: readonly T[], spellings: (item: T) => readonly string[] = (item) => [String(item)]): T[] {
  const key = nameKey(input)
  const limit = Math.max(2, Math.floor(key.length / 3))
  return items
    .map((item) => ({ item, distance: Math.min(...spellings(item).map((s) => editDistance(key, nameKey(s)))) }))
    .filter((entry) => entry.distance <= limit)
    .sort((x, y) => x.distance - y.distance)
    .map((entry) => entry.item)
}

/** a, a or b, a, b or c. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

/** " (did you mean 'x'?)" for the closest of `known` to `input` (those equally close, at most three), or '' when none is close. */
export function didYouMean(input: string, known: readonly string[]): string {
  const distance = (name: string) => editDistance(nameKey(input), nameKey(name))
  const similar = closest(input, known)
  const best = similar.filter((name) => distance(name) === distance(similar[0] ?? '')).slice(0, 3)
  return best.length > 0 ? ` (did you mean ${orList(best.map((n) => `'${n}'`))}?)` : ''
}

/** A wrong value as an error message shows it: 'text' quoted, an object as JSON (cut short), a function as such. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (typeof value === 'function') return 'a function'
  if (typeof value !== 'object' || value === null) return String(value)
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 80 ? `${json.slice(0, 77)}...` : json
}
