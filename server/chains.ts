// `npm run chains`: the demo's two dev chains as one process of their own (server/chain/devChainsProcess.ts),
// for servers that share them — role processes given its address in NADI_DEV_CHAINS_URL (`npm run shape`
// starts it with everything else). Settings as a server's: NADI_CHAIN_ID, NADI_DEV_BLOCK_TIME,
// NADI_HOT_WALLET_KEY(_FILE), HOST; PORT is its own (8070). Refused in production, as dev chains are.

import { serveDevChains } from './chain/devChainsProcess.ts'
import { loadConfig } from './config.ts'
import { envInt } from './settings.ts'

function refuse(why: string): never {
  process.stderr.write(`\n  NADI dev chains did not start: ${why}\n\n`)
  process.exit(1)
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']

let config
let port
try {
  // This process is the dev chains, whatever the demo default says.
  config = loadConfig({ ...process.env, NADI_DEV_CHAINS: '1' })
  port = envInt(process.env, 'PORT', 8070, 0, 65_535)
} catch (err) {
  refuse(err instanceof Error ? err.message : String(err))
}
const quietBelow = Math.max(0, LEVELS.indexOf(config.logLevel))
/** One JSON line per entry, as the servers' logs (pino's shape: level, time, msg and the fields). */
const line = (level: 'info' | 'warn' | 'error', code: number) => (fields: unknown, msg?: string) => {
  if (LEVELS.indexOf(level) < quietBelow) return
  const extra = fields instanceof Error ? { err: { message: fields.message, stack: fields.stack } } : typeof fields === 'object' && fields !== null ? fields : { msg: String(fields) }
  process.stdout.write(`${JSON.stringify({ level: code, time: Date.now(), name: 'chains', ...extra, ...(msg ? { msg } : {}) }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`)
}
const log = { info: line('info', 30), warn: line('warn', 40), error: line('error', 50) }

let chains
try {
  chains = await serveDevChains(config.chain, log, { host: config.host, port })
} catch (err) {
  refuse(err instanceof Error ? err.message : String(err))
}

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    chains.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error(err, 'stopping the dev chains failed')
        process.exit(1)
      },
    )
  })
}

process.stdout.write(
  `\n  NADI dev chains are running: ${chains.manifest.chains.map((c) => `${c.key} (chain ${c.id}) at ${c.rpcUrl}`).join(', ')}\n` +
    `  Servers share them with NADI_DEV_CHAINS_URL=${chains.url}\n\n`,
)
