// The error a call throws, for tests that check more of it than toThrow can (its class, fields and cause).

export function captureError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error, but none was thrown')
}
