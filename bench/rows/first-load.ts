import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { atMostVsFloor, infoVsFloor, type BenchContext, type Row } from '../support/types.ts'
import { kib } from '../support/stats.ts'

interface FirstLoad {
  raw: number
  gzip: number
  parts: { file: string; raw: number; gzip: number }[]
}

export const id = 'first-load'

/** Issue 21: ≤ 100 KB and ≤ 1.5× the floor's. scripts/budgets.json holds the CI's limit. */
const TARGET = 100 * 1024
const MAX_RATIO = 1.5

/**
 * Gzipped JavaScript of the first load of /index, counted exactly as the CI budget check counts it,
 * for our build, the floor's (no locale chunk: it has no strings) and BENCH_BASELINE's.
 */
export async function run(ctx: BenchContext): Promise<Row[]> {
  // A plain .mjs without types: imported by URL so TypeScript sees `any`, then typed here.
  const mod = (await import(pathToFileURL(path.join(ctx.root, 'scripts/first-load.mjs')).href)) as {
    firstLoad: (dist?: string, locale?: string | null) => FirstLoad
  }
  const byPackage = (await import(pathToFileURL(path.join(ctx.root, 'scripts/first-load-packages.mjs')).href)) as {
    firstLoadByPackage: (dist?: string, locale?: string | null) => { name: string; gzip: number }[]
  }
  const subjects = await ctx.subjects()
  const floorSubject = subjects.find((s) => s.kind === 'floor')
  if (!floorSubject) throw new Error('no floor among the subjects')
  const floor = mod.firstLoad(floorSubject.dist, null)
  const name = 'initial JS of /index (gzip)'
  const rows: Row[] = []
  for (const s of subjects) {
    const locale = s.kind === 'floor' ? null : 'tw'
    const fl = s.kind === 'floor' ? floor : mod.firstLoad(s.dist, locale)
    // By npm package where the build weighed its modules (dist/.bundle-packages: builds since issue 21).
    const packages = fs.existsSync(path.join(s.dist, '.bundle-packages')) ? byPackage.firstLoadByPackage(s.dist, locale) : null
    const details = { raw: fl.raw, gzip: fl.gzip, parts: fl.parts, packages, dist: s.dist }
    if (s.kind === 'ours') rows.push(atMostVsFloor({ name, value: fl.gzip, floor: floor.gzip, unit: 'bytes', max: TARGET, maxRatio: MAX_RATIO, format: kib, details }))
    else rows.push(infoVsFloor({ name: `${s.label}: ${name}`, value: fl.gzip, floor: s.kind === 'floor' ? undefined : floor.gzip, unit: 'bytes', format: kib, details }))
  }
  return rows
}
