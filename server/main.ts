import { buildApp } from './app.ts'
import { loadConfig, type Config } from './config.ts'
import { DataFolderBusy } from './db/writerLock.ts'
import { EnvelopeRefused } from './http/seal.ts'
import { buildEngineProcess } from './roles/engineProcess.ts'
import { buildJobsProcess } from './roles/jobsProcess.ts'
import { argvSettings } from './roles/settings.ts'

function refuse(why: string): never {
  process.stderr.write(`\n  NADI did not start: ${why}\n\n`)
  process.exit(1)
}

// `npm run serve -- --role jobs` (server/roles/settings.ts): the command line over the environment.
// A setting that is wrong stops the start in one line that names it.
let config: Config
try {
  config = loadConfig({ ...process.env, ...argvSettings(process.argv.slice(2)) })
} catch (err) {
  refuse(err instanceof Error ? err.message : String(err))
}
let built
try {
  switch (config.role) {
    case 'jobs':
      built = { ...(await buildJobsProcess({ config })), rootInviteCode: null }
      break
    case 'engine':
      built = { ...(await buildEngineProcess({ config })), rootInviteCode: null }
      break
    default:
      built = await buildApp({ config })
  }
} catch (err) {
  if (!(err instanceof DataFolderBusy) && !(err instanceof EnvelopeRefused)) throw err
  refuse(err.message)
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
  rootInviteCode === null
    ? `\n  NADI --role ${config.role} is running: health at ${url}/api/v1/common/health  (${config.env})\n\n`
    : `\n  NADI is running at ${url}  (${config.env}${config.demo ? ', demo' : ''}${config.role === 'all' ? '' : `, --role ${config.role}`})\n` +
        `  Root invite code: ${rootInviteCode}   →  ${url}/?code=${rootInviteCode}\n` +
        `  API docs: ${url}/api/docs\n\n`,
)
