/** Polls `probe` until it returns true, for changes that arrive asynchronously (NOTIFY). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 2000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (await probe()) return true
    if (performance.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
