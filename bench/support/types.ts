import type { Browser } from 'playwright-core'
import type { BenchPostgres } from './postgres.ts'
import type { BenchServer } from './server.ts'
import type { Subject } from './subjects.ts'

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
  /** Our app, the floor (built on first call) and BENCH_BASELINE's app when set: what the page rows measure side by side. */
  subjects(): Promise<Subject[]>
  /** A server like server() serving `subject` (ours: server() itself). Started on first call, then shared. */
  serverFor(subject: Subject): Promise<BenchServer>
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

/** `value` as a multiple of the floor's, as printed: "1.42× floor". */
export const timesFloor = (value: number, floor: number): string => `${(value / floor).toFixed(2)}× floor`

/**
 * A row of ours beside the floor (issue 21): measured is the figure and its multiple of the floor's;
 * it passes at or under `max` and, when `maxRatio` is given, at or under that multiple of the floor.
 */
export function atMostVsFloor(o: {
  name: string
  value: number
  floor: number
  unit: string
  max: number
  maxRatio?: number
  format: (v: number) => string
  details?: Record<string, unknown>
}): Row {
  const ratio = o.value / o.floor
  const row = atMost({
    name: o.name,
    value: o.value,
    unit: o.unit,
    max: o.max,
    format: o.format,
    target: `≤ ${o.format(o.max)}${o.maxRatio === undefined ? '' : ` and ≤ ${o.maxRatio}× floor`}`,
    details: { ...o.details, floor: o.floor, ratioToFloor: Math.round(ratio * 1000) / 1000, maxRatio: o.maxRatio ?? null },
  })
  return { ...row, measured: `${row.measured} (${timesFloor(o.value, o.floor)})`, pass: row.pass === true && (o.maxRatio === undefined || ratio <= o.maxRatio) }
}

/** The floor's own figure, or another build's beside the floor's (`floor` given): printed, no target. */
export function infoVsFloor(o: { name: string; value: number; floor?: number; unit: string; format: (v: number) => string; details?: Record<string, unknown> }): Row {
  const row = info({ name: o.name, value: o.value, unit: o.unit, format: o.format, details: o.details })
  return o.floor === undefined ? row : { ...row, measured: `${row.measured} (${timesFloor(o.value, o.floor)})`, details: { ...o.details, floor: o.floor, ratioToFloor: Math.round((o.value / o.floor) * 1000) / 1000 } }
}
