import type { Browser } from 'playwright-core'
import type { BenchPostgres } from './postgres.ts'
import type { BenchServer } from './server.ts'

/** One line of the results table. `details` goes to results.json only. */
export interface Row {
  name: string
  /** As printed, e.g. "1.84 s". */
  measured: string
  /** As printed, e.g. "≤ 2.0 s"; "—" when the row has no target. */
  target: string
  /** true ✓, false ✗, null: no target (printed "—"). */
  pass: boolean | null
  /** The raw number behind `measured`, in `unit`. */
  value?: number | null
  unit?: string
  /** The raw threshold behind `target`, in `unit`. */
  limit?: number
  details?: unknown
}

/** Shared, lazily started resources. Anything started here is stopped by run.ts at the end. */
export interface BenchContext {
  /** Repository root (absolute). */
  root: string
  /** Built app (absolute path of dist/). */
  dist: string
  /** bench/out (gitignored), for artefacts a row wants to keep. */
  outDir: string
  /** Repetitions for timed rows: BENCH_RUNS, default 5. */
  runs: number
  /** The real Fastify server, in process, demo content seeded. Started on first call, then shared. */
  server(): Promise<BenchServer>
  /** Headless Debian Chromium. Launched on first call, then shared; use a fresh context per measurement. */
  browser(): Promise<Browser>
  /** A throwaway PostgreSQL cluster (rows measured on both backends). Started on first call, then shared; rejects when PostgreSQL is missing. */
  postgres(): Promise<BenchPostgres>
  /** Progress line to stderr (stdout holds the table only). */
  log(msg: string): void
}

/** A bench/rows/*.ts module. Register it in the ROWS list of bench/run.ts. */
export interface RowModule {
  /** Short id, used to filter: `tsx bench/run.ts <id>`. */
  id: string
  run(ctx: BenchContext): Promise<Row[]>
}

/** A row whose value must stay at or under `max`. */
export function atMost(o: {
  name: string
  value: number
  unit: string
  max: number
  format: (v: number) => string
  /** Printed target; defaults to "≤ format(max)". */
  target?: string
  details?: unknown
}): Row {
  return {
    name: o.name,
    measured: o.format(o.value),
    target: o.target ?? `≤ ${o.format(o.max)}`,
    pass: o.value <= o.max,
    value: o.value,
    unit: o.unit,
    limit: o.max,
    details: o.details,
  }
}

/** A row printed for context, with no target. */
export function info(o: { name: string; value: number; unit: string; format: (v: number) => string; details?: unknown }): Row {
  return { name: o.name, measured: o.format(o.value), target: '—', pass: null, value: o.value, unit: o.unit, details: o.details }
}
