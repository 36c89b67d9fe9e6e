// A fraction as a percentage, for every figure and verdict that speaks in percent (reports and the CI gate's reasons).

/** A fraction (0.05) as a percentage (5.0%): one decimal, or two significant digits when smaller than 0.1%. */
export function formatFraction(ratio: number, signed = false): string {
  const p = ratio * 100
  const abs = Math.abs(p)
  const body = abs !== 0 && abs < 0.1 ? abs.toPrecision(2) : abs.toFixed(1)
  const sign = p < 0 ? '-' : signed ? '+' : ''
  return `${sign}${body}%`
}
