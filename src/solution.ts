// The package's `vitest-kernel-bench/solution` entry: what a TypeScript solution module imports. The module is
// loaded by the device host, which calls the setup it declares (src/engine/host/ts-solution.ts).
export {
  defineSolution,
  type CompileKernelOptions,
  type Dim3,
  type Kernel,
  type KernelArg,
  type KernelParamType,
  type LaunchConfig,
  type SolutionArg,
  type SolutionContext,
  type SolutionCublas,
  type SolutionSetup,
  type TsSolution,
} from './engine/host/ts-solution.js'
