import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { atMost, type BenchContext, type Row } from '../support/types.ts'
import { kib } from '../support/stats.ts'

interface FirstLoad {
  raw: number
  gzip: number
  parts: { file: string; raw: number; gzip: number }[]
}

export const id = 'first-load'

const TARGET = 125 * 1024
/** scripts/check-budget.mjs fails CI above this. */
const CI_LIMIT = 150 * 1024

/** Gzipped JavaScript of the first load of /index, counted exactly as the CI budget check counts it. */
export async function run(ctx: BenchContext): Promise<Row[]> {
  // A plain .mjs without types: imported by URL so TypeScript sees `any`, then typed here.
  const mod = (await import(pathToFileURL(path.join(ctx.root, 'scripts/first-load.mjs')).href)) as {
    firstLoad: (dist?: string) => FirstLoad
  }
  const fl = mod.firstLoad(ctx.dist)
  return [
    atMost({
      name: 'initial JS of /index (gzip)',
      value: fl.gzip,
      unit: 'bytes',
      max: TARGET,
      format: kib,
      target: `≤ ${kib(TARGET)} (CI limit ${kib(CI_LIMIT)})`,
      details: { raw: fl.raw, gzip: fl.gzip, ciLimit: CI_LIMIT, overCiLimit: fl.gzip > CI_LIMIT, parts: fl.parts },
    }),
  ]
}
