// Compiles server/chain/sol/*.sol with solc-js (standard JSON, optimizer on) into server/chain/artifacts.
// Used by scripts/compile-contracts.ts and, when the artifacts are stale, by the dev chains.

import { ARTIFACTS_DIR, CONTRACTS_DIR, SOLC_SETTINGS, artifactsUpToDate, buildHash, readSources, writeArtifacts, type Artifact } from './contracts.ts'

interface SolcError {
  severity: 'error' | 'warning' | 'info'
  formattedMessage?: string
  message: string
}

interface SolcOutput {
  errors?: SolcError[]
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

export class CompileError extends Error {
  override name = 'CompileError'
}

export interface CompileReport {
  /** False when the artifacts were already up to date. */
  compiled: boolean
  contracts: string[]
  warnings: string[]
  ms: number
}

export async function compileContracts(opts: { force?: boolean; sourcesDir?: string; outDir?: string } = {}): Promise<CompileReport> {
  const t0 = performance.now()
  const sourcesDir = opts.sourcesDir ?? CONTRACTS_DIR
  const outDir = opts.outDir ?? ARTIFACTS_DIR
  const sources = readSources(sourcesDir)
  if (Object.keys(sources).length === 0) throw new CompileError(`No .sol files in ${sourcesDir}`)
  const hash = buildHash(sources)
  if (!opts.force && artifactsUpToDate(hash, outDir)) {
    return { compiled: false, contracts: [], warnings: [], ms: performance.now() - t0 }
  }

  const solc = (await import('solc')).default
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SOLC_SETTINGS,
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (p: string) => ({ error: `Imports are not supported (${p}): the project's contracts are self-contained` }),
    }),
  ) as SolcOutput
  const problems = output.errors ?? []
  const text = (e: SolcError) => (e.formattedMessage ?? e.message).trim()
  const errors = problems.filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new CompileError(`Solidity compilation failed:\n${errors.map(text).join('\n\n')}`)

  const version: string = solc.version()
  const artifacts: Artifact[] = []
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, c] of Object.entries(contracts)) {
      // Interfaces and abstract contracts have no creation code: nothing to deploy.
      if (!c.evm.bytecode.object) continue
      artifacts.push({ contractName, sourceName, compiler: version, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` })
    }
  }
  const names = artifacts.map((a) => a.contractName)
  const dup = names.find((n, i) => names.indexOf(n) !== i)
  if (dup) throw new CompileError(`Two contracts are named ${dup}; artifact names must be unique`)
  writeArtifacts(artifacts, hash, outDir)
  return {
    compiled: true,
    contracts: names,
    warnings: problems.filter((e) => e.severity === 'warning').map(text),
    ms: performance.now() - t0,
  }
}
