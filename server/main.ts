import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { DataFolderBusy } from './db/writerLock.ts'

const config = loadConfig()
let built
try {
  built = await buildApp({ config })
} catch (err) {
  if (!(err instanceof DataFolderBusy)) throw err
  process.stderr.write(`\n  NADI did not start: ${err.message}\n\n`)
  process.exit(1)
}
const { app, rootInviteCode } = built

let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  })
}

await app.listen({ host: config.host, port: config.port })
const url = `http://localhost:${config.port}`
// Printed plainly as well as logged: the first person to sign up needs this code.
process.stdout.write(
  `\n  NADI is running at ${url}  (${config.env}${config.demo ? ', demo' : ''})\n` +
    `  Root invite code: ${rootInviteCode}   →  ${url}/?code=${rootInviteCode}\n` +
    `  API docs: ${url}/api/docs\n\n`,
)
