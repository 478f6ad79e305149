/** Progress lines for long CLI runs: records done, rate, and time remaining when the total is known. */
export function progressReporter(write: (line: string) => void, unit: string, total: number | null, everyMs = 2000) {
  const started = performance.now()
  let last = 0
  return (done: number) => {
    const now = performance.now()
    if (now - last < everyMs && done !== total) return
    last = now
    const seconds = (now - started) / 1000
    const rate = seconds > 0 ? done / seconds : 0
    const parts = [
      `${done.toLocaleString('en-US')}${total ? ` / ${total.toLocaleString('en-US')}` : ''} ${unit}`,
      `${Math.round(rate).toLocaleString('en-US')}/s`,
    ]
    if (total && rate > 0 && done < total) parts.push(`about ${Math.ceil((total - done) / rate)} s left`)
    write(parts.join(', '))
  }
}
