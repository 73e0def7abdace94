// npx tsx scripts/compile-contracts.ts [--force]
// Compiles server/chain/sol/*.sol into server/chain/artifacts/<Name>.json ({abi, bytecode}). Skips the work
// when sources, compiler and settings are unchanged; exits 1 with the compiler's messages on an error.

import path from 'node:path'
import { compileContracts } from '../server/chain/compile.ts'
import { ARTIFACTS_DIR, ROOT } from '../server/chain/contracts.ts'

try {
  const r = await compileContracts({ force: process.argv.includes('--force') })
  for (const w of r.warnings) process.stderr.write(`${w}\n\n`)
  const where = path.relative(ROOT, ARTIFACTS_DIR)
  process.stdout.write(
    r.compiled
      ? `contracts: compiled ${r.contracts.join(', ')} → ${where} in ${Math.round(r.ms)} ms\n`
      : `contracts: up to date (${where})\n`,
  )
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
}
