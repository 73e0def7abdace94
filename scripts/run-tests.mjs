// `npm test`'s last step: the browser suite beside the rest, as two vitest runs at once.
//
// The e2e files run one at a time (one Chromium on two cores) and spend most of their time waiting
// for a screen, so the browser used about half a core while the other suites waited for it to end:
// run one after the other they took ~32 minutes of CI, side by side they share the two cores. Both
// runs use the same vitest.config.ts; each starts its own PostgreSQL cluster (its globalSetup).
//
// The first run's output streams; the browser's is held and printed whole once both have ended, so
// the two never interleave line by line and the end of the log (what CI keeps) holds the browser's
// summary and, last, the files that failed in either run. Arguments (`npm test -- tests/unit/x.test.ts`) mean one plain
// `vitest run` with them, as before.
import { spawn } from 'node:child_process'

const vitest = ['node_modules/vitest/vitest.mjs', 'run']

/** Resolves with the exit code and what the run printed (held, or streamed and copied). */
function run(args, { hold }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...vitest, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env })
    const out = []
    const keep = (stream) => (d) => {
      out.push(d)
      if (!hold) stream.write(d)
    }
    child.stdout.on('data', keep(process.stdout))
    child.stderr.on('data', keep(process.stderr))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), text: Buffer.concat(out).toString('utf8') }))
  })
}

/** The test files a vitest run reported failing (its "FAIL" lines), colours stripped. */
function failedFiles(text) {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '') // eslint-disable-line no-control-regex -- colour codes are what it strips
  return [...new Set([...plain.matchAll(/^\s*(?:FAIL|❯|×)\s+(?:\S+\s+)?(tests\/\S+\.test\.tsx?)/gm)].map((m) => m[1]))]
}

const extra = process.argv.slice(2)
if (extra.length) process.exit((await run(extra, { hold: false })).code)

const started = Date.now()
const [rest, browser] = await Promise.all([
  run(['--project', 'unit', '--project', 'integration', '--project', 'integration-pg'], { hold: false }),
  run(['--project', 'e2e'], { hold: true }),
])
// The first run's failures scrolled past long before the end; CI keeps the end, so they are repeated
// here (vitest's "Failed Tests" section, up to its summary) above the browser's whole output.
const failures = (text) => {
  const at = text.search(/⎯+\S*\s*\S*Failed Tests? \d+/)
  const end = text.search(/\n\s*\S*\s*Test Files /)
  return at < 0 ? '' : text.slice(at, end > at ? end : undefined)
}
if (rest.code !== 0 && failures(rest.text)) process.stdout.write(`\n--- unit + integration + integration-pg: the failures again ---\n${failures(rest.text)}\n`)
process.stdout.write(browser.text)
const minutes = ((Date.now() - started) / 60_000).toFixed(1)
for (const [name, r] of [['unit + integration + integration-pg', rest], ['e2e', browser]]) {
  const failed = r.code === 0 ? [] : failedFiles(r.text)
  if (failed.length) console.log(`\n${name} failed in: ${failed.join(', ')}`)
}
console.log(`\nnpm test: unit + integration + integration-pg ${rest.code === 0 ? 'passed' : 'FAILED'}, e2e ${browser.code === 0 ? 'passed' : 'FAILED'} (${minutes} min side by side)`)
process.exit(rest.code === 0 && browser.code === 0 ? 0 : 1)
