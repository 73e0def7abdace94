// Leadership through PostgreSQL (issue 19): whoever holds a session advisory lock leads. The lock is
// held on a connection of its own (a `pg` client, so that its death arrives as an event), never on
// the pool the money goes through. PostgreSQL frees a session's advisory
// locks when the session ends, however it ends: kill -9 of a leader closes its socket, its backend
// ends, and a standby's next request (every `everyMs`) is granted the lock.
//
// The other way round, a leader that is no longer sure of its session stops at once (the rules are
// in ./election.ts): an error or end of the connection, a failed query, a heartbeat unanswered for
// `timeoutMs` of its own running time. A leader whose machine or network is gone without its socket
// closing is found out by the database through TCP keepalives set short on the session (seconds,
// not the kernel's default of hours), which ends the session and frees the lock. A leader that is
// only busy — a settlement day is one synchronous transaction that holds the event loop — is not
// idle in that sense (its kernel answers the probes) and keeps the lock: nothing would be gained by
// a standby starting the same work beside it. Leadership alone is not what keeps money right: every
// job's writes are idempotent by themselves (ledger refs, unique days, claimed rows); the election
// keeps them from racing.

import os from 'node:os'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import { electionStep, initialElection, type Effect, type ElectionEvent } from './election.ts'

/** The advisory lock keys of the elections (any constants distinct from the writer lock's, PG_WRITER_LOCK). */
export const JOBS_LEADER_KEY = 7_411_100
/** The engine of market m is led by whoever holds ENGINE_KEY + m (m: the market's index). */
export const ENGINE_KEY = 7_411_200

export interface ElectOptions {
  /** The database (postgres:// URL). */
  url: string
  /** What is led ('jobs'): the role_leaders row and the session's application_name name it. */
  name: string
  key: number
  /** How often a standby asks and a leader heartbeats (1 s). */
  everyMs?: number
  /** An answer slower than this is a lost connection (3 × everyMs). */
  timeoutMs?: number
  /** Starts the work; called once per leadership won, never while the previous onLose is still stopping. If it fails, the leadership is given up (onLose runs) and sought again. */
  onLead(): void | Promise<void>
  /** Stops the work at once; called when the leadership is lost or the election closes. */
  onLose(): void | Promise<void>
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>
}

export interface Election {
  readonly name: string
  /** True while this process leads (its work running or being started). */
  leading(): boolean
  /** Stops the work if it leads, then ends the session, which frees the lock for a standby. */
  close(): Promise<void>
}

export function elect(opts: ElectOptions): Election {
  const everyMs = opts.everyMs ?? 1000
  const timing = { everyMs, timeoutMs: opts.timeoutMs ?? 3 * everyMs }
  const host = os.hostname()
  const appName = `nadi ${opts.name} leader pid ${process.pid} on ${host}`.slice(0, 63)
  // Seconds of silence before the database probes the leader's connection (then 3 probes, 1 s apart).
  const keepaliveIdle = Math.max(1, Math.ceil(timing.timeoutMs / 1000))
  let state = initialElection()
  let client: pg.Client | null = null
  // Each connection's events carry its number: those of a connection already given up are ignored.
  let gen = 0
  // Each leadership won or lost moves the term: an onLead queued behind a slow onLose runs only if its term still holds.
  let term = 0
  let working = false
  let work: Promise<unknown> = Promise.resolve()
  let ending: pg.Client | null = null

  /** Runs a handler; answers whether it succeeded (a failure is logged). */
  const call = async (what: 'onLead' | 'onLose'): Promise<boolean> => {
    try {
      await opts[what]()
      return true
    } catch (err) {
      opts.log.error({ err, election: opts.name }, `${what} failed`)
      return false
    }
  }

  const handle = (e: ElectionEvent, from = gen) => {
    if (from !== gen) return
    const step = electionStep(state, e, timing)
    state = step.state
    for (const effect of step.effects) apply(effect)
  }
  const failed = (from: number) => () => handle({ type: 'failed', now: Date.now() }, from)

  const apply = (effect: Effect) => {
    const c = client
    const mine = gen
    switch (effect) {
      case 'connect': {
        const fresh = new pg.Client({ connectionString: opts.url, application_name: appName, keepAlive: true })
        const id = ++gen
        client = fresh
        fresh.on('error', failed(id))
        fresh.on('end', failed(id))
        fresh
          .connect()
          .then(() => fresh.query(`SET tcp_keepalives_idle = ${keepaliveIdle}; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3`))
          .then(() => handle({ type: 'connected', now: Date.now() }, id), failed(id))
        return
      }
      case 'try':
        c!.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [opts.key]).then((r) => handle({ type: 'tried', got: r.rows[0]?.got === true, now: Date.now() }, mine), failed(mine))
        return
      case 'ping':
        c!.query('SELECT 1').then(() => handle({ type: 'pinged', now: Date.now() }, mine), failed(mine))
        return
      case 'lead': {
        const my = ++term
        opts.log.info({ election: opts.name }, `leads ${opts.name}`)
        c!.query(
          `INSERT INTO role_leaders (name, pid, host, since) VALUES ($1, $2, $3, $4)
           ON CONFLICT (name) DO UPDATE SET pid = excluded.pid, host = excluded.host, since = excluded.since`,
          [opts.name, process.pid, host, Date.now()],
        ).catch(failed(mine))
        // A leader that cannot start its work steps down, so that another candidate may do it.
        work = work.then(async () => {
          if (my !== term) return
          working = true
          if (!(await call('onLead'))) handle({ type: 'failed', now: Date.now() }, mine)
        })
        return
      }
      case 'lose': {
        term++
        opts.log.warn({ election: opts.name }, `no longer leads ${opts.name}`)
        if (!working) return
        working = false
        const stopping = call('onLose')
        work = work.then(() => stopping)
        return
      }
      case 'drop':
        // Given up: its events are ignored from now on; ending it ends its session (and a lock it holds).
        gen++
        client = null
        if (c) {
          c.on('error', () => {})
          c.end().catch(() => {})
        }
        return
      case 'end':
        gen++
        client = null
        ending = c
        return
    }
  }

  const timer = setInterval(() => handle({ type: 'tick', now: Date.now() }), everyMs)
  handle({ type: 'tick', now: Date.now() })

  return {
    name: opts.name,
    leading: () => state.phase === 'leading',
    async close() {
      clearInterval(timer)
      const wasLeading = state.phase === 'leading'
      handle({ type: 'close' })
      await work
      const c = ending
      ending = null
      if (!c) return
      c.on('error', () => {})
      // Removed before the lock goes, so the row never names a process that has let go.
      if (wasLeading) await c.query('DELETE FROM role_leaders WHERE name = $1 AND pid = $2 AND host = $3', [opts.name, process.pid, host]).catch(() => {})
      // Released before the session ends: the server drops a closing session's locks only after our
      // end() returns, so a successor started at once could still find it held.
      await c.query('SELECT pg_advisory_unlock_all()').catch(() => {})
      await c.end().catch(() => {})
    },
  }
}
