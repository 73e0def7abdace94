// The registry this project installs from serves each native binary package only for the platform
// we run on; npm then leaves the other platforms' optional binaries out of package-lock.json, and
// `npm ci` rejects the lock as out of sync. This records those optional packages in the lock with
// their os/cpu/libc, so `npm ci` accepts it and skips them (never fetched) on Linux x64.
// Run after any change to dependencies: node scripts/lock-foreign-platforms.mjs
import fs from 'node:fs'

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'))
const pkgs = lock.packages
const CPU = { amd64: 'x64', x64: 'x64', arm64: 'arm64', arm: 'arm', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' }
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32']

function platformOf(name) {
  const tail = name.split('/').pop()
  const parts = tail.split('-')
  const os = parts.find((p) => OS.includes(p))
  const cpu = parts.map((p) => CPU[p]).find(Boolean)
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : os === 'linux' && parts.some((p) => p.startsWith('gnu')) ? 'glibc' : null
  return os && cpu ? { os, cpu, libc } : null
}

let added = 0
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`
    if (pkgs[key] || pkgs[`${path}/node_modules/${dep}`]) continue
    const p = platformOf(dep)
    if (!p) continue // e.g. fsevents: not a per-platform binary package of this kind
    pkgs[key] = { version, cpu: [p.cpu], os: [p.os], ...(p.libc ? { libc: [p.libc] } : {}), optional: true }
    added++
  }
}
const sorted = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)))
lock.packages = sorted
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
console.log(`recorded ${added} optional platform packages`)
