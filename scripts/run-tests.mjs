// `npm test`'s last step: the browser suite beside the rest, as two vitest runs at once.
//
// The e2e files run one at a time (one Chromium on two cores) and spend most of their time waiting
// for a screen, so the browser used about half a core while the other suites waited for it to end:
// run one after the other they took ~32 minutes of CI, side by side they share the two cores. Both
// runs use the same vitest.config.ts; each starts its own PostgreSQL cluster (its globalSetup).
//
// The first run's output streams; the browser's is held and printed whole when it ends, so the two
// never interleave line by line. Arguments (`npm test -- tests/unit/x.test.ts`) mean one plain
// `vitest run` with them, as before.
import { spawn } from 'node:child_process'

const vitest = ['node_modules/vitest/vitest.mjs', 'run']

function run(args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, ...args], { stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env })
    const held = []
    if (hold) {
      child.stdout.on('data', (d) => held.push(d))
      child.stderr.on('data', (d) => held.push(d))
    }
    child.on('close', (code, signal) => {
      if (hold) process.stdout.write(Buffer.concat(held))
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}

const extra = process.argv.slice(2)
if (extra.length) process.exit(await run(extra, { hold: false }))

const started = Date.now()
const [rest, browser] = await Promise.all([
  run(['--project', 'unit', '--project', 'integration', '--project', 'integration-pg'], { hold: false }),
  run(['--project', 'e2e'], { hold: true }),
])
const minutes = ((Date.now() - started) / 60_000).toFixed(1)
console.log(`\nnpm test: unit + integration + integration-pg ${rest === 0 ? 'passed' : 'FAILED'}, e2e ${browser === 0 ? 'passed' : 'FAILED'} (${minutes} min side by side)`)
process.exit(rest === 0 && browser === 0 ? 0 : 1)
