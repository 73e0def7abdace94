// What `npm test` needs from the system, checked before anything runs: Chromium (the e2e suite),
// PostgreSQL 15+ (the integration suite's second backend), and nginx and Caddy (tests/integration/deploy.test.ts runs the deployment's proxies in front of real
// processes; it fails rather than skips under npm test, so they must be here).
// As root on a Debian-like machine the missing parts are installed (as .ci/run does); otherwise the
// run stops at once with one line naming the command, rather than a wall of red tests.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const CHROMIUM = '/usr/bin/chromium'

function pgBin() {
  if (process.env.NADI_PG_BIN) return fs.existsSync(path.join(process.env.NADI_PG_BIN, 'initdb')) ? process.env.NADI_PG_BIN : null
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const v = fs.readdirSync(base).filter((d) => /^\d+$/.test(d) && Number(d) >= 15 && fs.existsSync(path.join(base, d, 'bin', 'initdb')))
  return v.length ? path.join(base, v.sort((a, b) => b - a)[0], 'bin') : null
}

/** A program on PATH, or in /usr/sbin where Debian puts nginx (not on a non-root user's PATH). */
function hasProgram(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0 || fs.existsSync(path.join('/usr/sbin', name))
}

function missing() {
  const apt = []
  if (!fs.existsSync(CHROMIUM)) apt.push('chromium', 'fonts-noto-cjk')
  if (!pgBin()) apt.push('postgresql')
  if (!hasProgram('nginx')) apt.push('nginx-light')
  if (!hasProgram('caddy')) apt.push('caddy')
  return apt
}

let need = missing()
if (need.length === 0) process.exit(0)

const root = process.getuid?.() === 0
const hasApt = hasProgram('apt-get')
const command = `apt-get install -y ${need.join(' ')}`
if (!root || !hasApt) {
  console.error(`npm test needs ${need.filter((p) => p !== 'fonts-noto-cjk').join(', ')}: run \`sudo ${command}\` first`)
  process.exit(1)
}
console.log(`preflight: installing ${need.join(' ')}`)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
execFileSync('apt-get', ['install', '-y', '-qq', ...need], { stdio: ['ignore', 'ignore', 'inherit'], env })
need = missing()
if (need.length) {
  console.error(`npm test needs what could not be installed: run \`${command}\``)
  process.exit(1)
}
