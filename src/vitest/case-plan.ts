// A case of a compiled bench as the plan the device host runs (src/shared/messages.ts): plain data, with a seed taken
// from the case's name, from which the device host draws the first verified call's inputs (the same in every run) and,
// with a secret of its own, every later call's.
import crypto from 'node:crypto'
import type { ArgPlan, CallTarget, CasePlan, DecodePlan, ModuleTarget, PlanInteger, ReferencePlan, SquareInput } from '../shared/messages.js'
import type { MeasureOptions } from '../spec/options.js'
import type { Dtype } from '../spec/dtype.js'
import { elementsOf, toleranceFor, type Problem, type TestCase } from '../spec/problem.js'
import { paramDtype, type InputStructure } from '../spec/signature.js'
import type { ResolvedSpec } from './resolve-spec.js'

/** The same case always gets the same seed. */
function caseSeed(problem: string, caseName: string): number {
  return crypto.createHash('sha256').update(`${problem}/${caseName}`).digest().readUInt32LE(0)
}

/** A structured input's side; throws when the case gives it a count that is not a square. */
function squareInput(problem: Problem, c: TestCase, name: string, count: number, structure: InputStructure): SquareInput {
  const side = Math.round(Math.sqrt(count))
  if (side * side !== count) {
    throw new Error(`case '${c.name}' of '${problem.name}': input '${name}' is ${structure}, so it must be a square matrix, but it has ${count} elements`)
  }
  return { structure, side }
}

/** A value as the plan carries it: a bigint as its decimal digits (see PlanInteger). */
const planInteger = (value: number | bigint): PlanInteger => (typeof value === 'bigint' ? String(value) : value)

function argPlans(problem: Problem, dtype: Dtype, c: TestCase): ArgPlan[] {
  const elements = problem.elements(c)
  return problem.signature.map((p): ArgPlan => {
    if (p.kind === 'scalar') {
      const value = p.value ?? c.params[p.name]
      if (value === undefined) throw new Error(`case '${c.name}' of '${problem.name}' has no value for parameter '${p.name}'`)
      return { kind: 'scalar', ctype: p.ctype, value: planInteger(value) }
    }
    if (p.kind === 'array') return { kind: 'array', name: p.name, ctype: p.ctype, memory: p.memory, values: [...p.values(c.params)] }
    const count = elementsOf(elements, p.name)
    const elementType = paramDtype(p, dtype)
    if (p.kind === 'input') {
      const square = p.structure && squareInput(problem, c, p.name, count, p.structure)
      const [lo, hi] = p.range ?? problem.inputRange
      return { kind: 'input', name: p.name, dtype: elementType, count, range: [planInteger(lo), planInteger(hi)], ...(square && { square }) }
    }
    return { kind: 'output', name: p.name, dtype: elementType, count, ...(p.initial && { initial: p.initial }) }
  })
}

/** Makes the plan of each case of bench `name`, whose solution and reference are compiled. */
export type CasePlanner = (c: TestCase, mode: CasePlan['mode'], options: MeasureOptions) => CasePlan

/** The case's decoded comparison, where the problem has one: its function was compiled with the reference. */
function decodePlan(problem: Problem, reference: ReferencePlan, c: TestCase): DecodePlan | undefined {
  if (!problem.decode) return undefined
  if (reference.kind !== 'library' || !reference.decode) throw new Error(`'${problem.name}' decodes its outputs, but its reference has no decode function`)
  const { name, dtype, elements } = problem.decode
  return { target: reference.decode, name, dtype, count: elementsOf({ [name]: elements(c) }, name) }
}

export function casePlanner(name: string, spec: ResolvedSpec, solution: CallTarget | ModuleTarget, reference: ReferencePlan): CasePlanner {
  const { problem, dtype } = spec
  const tolerance = toleranceFor(problem, dtype)
  return (c, mode, options) => {
    const seed = caseSeed(problem.name, c.name)
    const args = argPlans(problem, dtype, c)
    const decode = decodePlan(problem, reference, c)
    return { benchName: name, caseName: c.name, seed, args, tolerance, solution, reference, ...(decode && { decode }), mode, options }
  }
}
