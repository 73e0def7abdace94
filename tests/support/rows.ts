// Rows read on the asynchronous way carry every integer as a bigint; tests written against plain
// numbers (ids, flags, times) compare a row turned to numbers.

export type Numbers<T> = { [K in keyof T]: T[K] extends bigint ? number : T[K] extends bigint | null ? number | null : T[K] }

/** The row with each bigint a number; undefined stays undefined. */
export function numbers<T extends object>(row: T): Numbers<T>
export function numbers<T extends object>(row: T | undefined): Numbers<T> | undefined
export function numbers<T extends object>(row: T | undefined): Numbers<T> | undefined {
  if (row === undefined) return undefined
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])) as Numbers<T> // each bigint field turned to its number, as the type says
}
