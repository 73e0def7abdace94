export interface Summary {
  n: number
  median: number
  min: number
  max: number
  samples: number[]
}

/** Median (mean of the middle two for an even count), min, max, and the samples in run order. */
export function summarize(samples: number[]): Summary {
  if (samples.length === 0) throw new Error('summarize: no samples')
  const s = [...samples].sort((a, b) => a - b)
  const mid = s.length >> 1
  const median = s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
  return { n: s.length, median, min: s[0] as number, max: s[s.length - 1] as number, samples }
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`
export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`
export const millis = (ms: number): string => `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`
