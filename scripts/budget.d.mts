// Types of scripts/budget.mjs, for the unit tests.
export interface Budgets {
  firstLoad: { totalKB: number; chunks: Record<string, number> }
  lazy: { chunks: Record<string, number> }
}
export interface ChunkVerdict {
  file: string
  name: string
  kind: 'firstLoad' | 'lazy'
  gzip: number
  limitKB: number
  row: string
  over: boolean
}
export function chunkName(file: string): string
export function limitFor(table: Record<string, number>, name: string): { key: string; kb: number }
export function checkBudgets(
  chunks: { file: string; gzip: number }[],
  firstLoad: { gzip: number; parts: { file: string }[] },
  budgets: Budgets,
): { rows: ChunkVerdict[]; failures: string[]; unused: string[] }
