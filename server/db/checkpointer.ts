import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

// WAL checkpoints off the committing thread. SQLite's automatic checkpoint runs inside the commit
// that crosses wal_autocheckpoint pages: the request that happens to commit then copies the WAL
// into the database and fsyncs both, while every other request waits (better-sqlite3 is
// synchronous). A second connection in a worker thread checkpoints instead (PASSIVE: it never
// blocks the writer), so commits only append to the WAL. The main connection keeps a high
// automatic threshold as a backstop should the worker stop.

/** Plain JavaScript on purpose: worker threads do not inherit tsx's loader. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('busy_timeout = 1000')
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) })
  }
}, workerData.everyMs)
parentPort.on('message', (m) => {
  if (m === 'stop') {
    clearInterval(timer)
    try { db.pragma('wal_checkpoint(PASSIVE)') } catch {}
    db.close()
    parentPort.postMessage({ stopped: true })
  }
})
`

export interface Checkpointer {
  stop(): Promise<void>
}

export function startCheckpointer(file: string, everyMs = 250, onError?: (message: string) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } })
  worker.unref()
  worker.on('message', (m: { error?: string }) => {
    if (m.error) onError?.(m.error)
  })
  worker.on('error', (e) => onError?.(e.message))
  let stopped: Promise<void> | null = null
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => resolve()
        worker.once('exit', done)
        worker.once('message', (m: { stopped?: boolean }) => {
          if (m.stopped) void worker.terminate().then(done, done)
        })
        worker.postMessage('stop')
        // A worker that does not answer is not waited for.
        setTimeout(() => void worker.terminate().then(done, done), 2000).unref()
      })
      return stopped
    },
  }
}
