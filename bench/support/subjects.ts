// What the page rows (first-load, paint, offline) measure side by side in one run: our app, the floor
// (bench/floor: the stack alone, issue 21) and, when BENCH_BASELINE names one, another commit's app.

import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

export interface Subject {
  /** ours: this checkout's dist/; floor: bench/out/floor; baseline: BENCH_BASELINE's dist/. */
  kind: 'ours' | 'floor' | 'baseline'
  /** As printed before a row's name (empty for ours). */
  label: string
  /** The checkout whose server serves it (its demo content names the images its app shows). */
  root: string
  dist: string
}

/**
 * BENCH_BASELINE=/path/to/checkout (another commit, built: its dist/index.html exists; its
 * node_modules may be a link to ours), printed as BENCH_BASELINE_LABEL or the folder's name.
 */
export function baselineFromEnv(env: NodeJS.ProcessEnv): Subject | null {
  const dir = env.BENCH_BASELINE?.trim()
  if (!dir) return null
  const root = path.resolve(dir)
  const dist = path.join(root, 'dist')
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`BENCH_BASELINE: ${dist}/index.html is missing; build that checkout first (npm run build there)`)
  if (!fs.existsSync(path.join(root, 'server', 'app.ts'))) throw new Error(`BENCH_BASELINE: ${root} is not a NADI checkout (no server/app.ts)`)
  return { kind: 'baseline', label: env.BENCH_BASELINE_LABEL?.trim() || path.basename(root), root, dist }
}

/** Builds the floor with vite.config.ts (NADI_BUILD=floor) into bench/out/floor, afresh each run. */
export async function buildFloor(root: string): Promise<Subject> {
  await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, NADI_BUILD: 'floor' },
  })
  const dist = path.join(root, 'bench', 'out', 'floor')
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`the floor's build wrote no ${dist}/index.html`)
  return { kind: 'floor', label: 'floor', root, dist }
}
