// The project's own Solidity contracts and their compiled artifacts. Sources live in server/chain/sol/*.sol;
// scripts/compile-contracts.ts (run by `npm run build`) writes server/chain/artifacts/<Name>.json, which
// is generated and not committed. A build stamp holds the hash of the sources, the compiler version and
// the settings, so an unchanged tree is not compiled again and a stale artifact is noticed.

import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')
export const CONTRACTS_DIR = path.join(ROOT, 'server/chain/sol')
export const ARTIFACTS_DIR = path.join(ROOT, 'server/chain/artifacts')
const STAMP = '.build.json'

/** Compiler settings of every build; part of the hash, so changing them recompiles. */
export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // Paris: no PUSH0, so the bytecode runs on any EVM chain a test token might be deployed to.
  evmVersion: 'paris',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const

export interface Artifact {
  contractName: string
  sourceName: string
  compiler: string
  abi: unknown[]
  /** 0x-prefixed creation bytecode. */
  bytecode: string
}

interface Stamp {
  hash: string
  contracts: string[]
}

/** The version of the installed solc-js, without loading the compiler (it takes a second). */
export function solcVersion(): string {
  try {
    const require = createRequire(import.meta.url)
    return (require('solc/package.json') as { version: string }).version
  } catch {
    return 'missing'
  }
}

/** server/chain/sol/*.sol, sorted: name → source text. */
export function readSources(dir = CONTRACTS_DIR): Record<string, string> {
  const out: Record<string, string> = {}
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sol')).sort()) {
    out[file] = fs.readFileSync(path.join(dir, file), 'utf8')
  }
  return out
}

export function buildHash(sources: Record<string, string>, version = solcVersion()): string {
  return crypto.createHash('sha256').update(JSON.stringify({ version, settings: SOLC_SETTINGS, sources })).digest('hex')
}

function readStamp(dir: string): Stamp | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8')) as Stamp
  } catch {
    return null
  }
}

/** True when every artifact exists and was built from the current sources, compiler and settings. */
export function artifactsUpToDate(hash: string, dir = ARTIFACTS_DIR): boolean {
  const stamp = readStamp(dir)
  return !!stamp && stamp.hash === hash && stamp.contracts.every((c) => fs.existsSync(path.join(dir, `${c}.json`)))
}

/** Writes a file whole or not at all, so a concurrent reader never sees half of it. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`
  fs.writeFileSync(tmp, text)
  fs.renameSync(tmp, file)
}

export function writeArtifacts(artifacts: Artifact[], hash: string, dir = ARTIFACTS_DIR): void {
  fs.mkdirSync(dir, { recursive: true })
  for (const a of artifacts) writeAtomic(path.join(dir, `${a.contractName}.json`), `${JSON.stringify(a, null, 2)}\n`)
  // The stamp last: an interrupted build leaves the old stamp, which no longer matches, and rebuilds.
  writeAtomic(path.join(dir, STAMP), `${JSON.stringify({ hash, contracts: artifacts.map((a) => a.contractName) } satisfies Stamp, null, 2)}\n`)
}

export function loadArtifact(name: string, dir = ARTIFACTS_DIR): Artifact {
  const file = path.join(dir, `${name}.json`)
  if (!fs.existsSync(file)) {
    throw new Error(`Contract artifact ${path.relative(ROOT, file)} is missing: run \`npx tsx scripts/compile-contracts.ts\` (part of \`npm run build\`)`)
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Artifact
}

/**
 * The artifact of a contract, compiled first when the sources changed since the last build (dev only:
 * it loads solc-js, a devDependency).
 */
export async function freshArtifact(name: string): Promise<Artifact> {
  // Without solc (installed without devDependencies) the built artifacts are all there is.
  const canCompile = solcVersion() !== 'missing'
  if (canCompile && !artifactsUpToDate(buildHash(readSources()))) {
    const { compileContracts } = await import('./compile.ts')
    await compileContracts()
  }
  return loadArtifact(name)
}
