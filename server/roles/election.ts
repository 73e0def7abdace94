// The election's rules, apart from any connection (server/roles/leader.ts is the PostgreSQL shell that
// runs them). A candidate connects, then as a standby asks for the lock every `everyMs`; once it has
// it, it leads and heartbeats every `everyMs` on the same connection. Whatever makes it unsure that
// its session still exists — the connection failing or ending, a query failing, or an answer that
// takes longer than `timeoutMs` — ends its leadership at once: the work stops before anything else,
// because a leader that is not sure it leads must not write. Then it drops the connection and, after
// `everyMs`, starts again as a new candidate.
//
// A request's time counts only while this process runs: the server's synchronous database work (a
// settlement day is one transaction) can hold the event loop for seconds, and an answer that arrived
// meanwhile sits unread. A tick that comes late by more than `everyMs` shifts the request's start by
// the stall, so a busy leader does not mistake its own pause for a lost connection.
//
// Pure: time arrives in the events, and what must happen is returned as effects for the shell to do.

export type Phase = 'connecting' | 'standby' | 'leading' | 'closed'

export interface Timing {
  /** How often a standby asks for the lock and a leader heartbeats. */
  everyMs: number
  /** An answer (connect, lock, heartbeat) slower than this counts as a lost connection. */
  timeoutMs: number
}

export interface ElectionState {
  phase: Phase
  /** The one request out on the connection (or the connection being made), and since when. */
  waiting: { on: 'connect' | 'try' | 'ping'; since: number } | null
  /** connecting: no new connection before this time. */
  retryAt: number
  /** When the last tick came (null: none yet), to tell a stalled event loop from a silent connection. */
  lastTick: number | null
}

export type ElectionEvent =
  /** The shell's timer, every `everyMs`. */
  | { type: 'tick'; now: number }
  | { type: 'connected'; now: number }
  | { type: 'tried'; got: boolean; now: number }
  | { type: 'pinged'; now: number }
  /** The connection failed or ended, or a request on it failed. */
  | { type: 'failed'; now: number }
  | { type: 'close' }

/**
 * connect: open a new connection. try: ask for the lock without waiting. ping: the heartbeat.
 * lead / lose: start / stop the work. drop: abandon the connection now (its session, and a lock it
 * holds, end with it). end: close the connection in order (close() releases the lock this way).
 */
export type Effect = 'connect' | 'try' | 'ping' | 'lead' | 'lose' | 'drop' | 'end'

export const initialElection = (): ElectionState => ({ phase: 'connecting', waiting: null, retryAt: 0, lastTick: null })

export interface Step {
  state: ElectionState
  effects: Effect[]
}

/** The next state of a candidate and what to do, given one event. */
export function electionStep(s: ElectionState, e: ElectionEvent, t: Timing): Step {
  if (s.phase === 'closed') return { state: s, effects: [] }
  if (e.type === 'close') return { state: { ...s, phase: 'closed', waiting: null, retryAt: 0 }, effects: s.phase === 'leading' ? ['lose', 'end'] : ['end'] }
  const giveUp = (now: number): Step => ({
    state: { ...s, phase: 'connecting', waiting: null, retryAt: now + t.everyMs },
    effects: s.phase === 'leading' ? ['lose', 'drop'] : ['drop'],
  })
  switch (e.type) {
    case 'failed':
      return giveUp(e.now)
    case 'connected':
      if (s.phase !== 'connecting' || s.waiting?.on !== 'connect') return { state: s, effects: [] }
      return { state: { ...s, phase: 'standby', waiting: { on: 'try', since: e.now }, retryAt: 0 }, effects: ['try'] }
    case 'tried':
      if (s.phase !== 'standby' || s.waiting?.on !== 'try') return { state: s, effects: [] }
      return e.got ? { state: { ...s, phase: 'leading', waiting: null }, effects: ['lead'] } : { state: { ...s, waiting: null }, effects: [] }
    case 'pinged':
      if (s.phase !== 'leading' || s.waiting?.on !== 'ping') return { state: s, effects: [] }
      return { state: { ...s, waiting: null }, effects: [] }
    case 'tick': {
      const stall = s.lastTick === null ? 0 : Math.max(0, e.now - s.lastTick - t.everyMs)
      const ticked = { ...s, lastTick: e.now }
      if (s.waiting) {
        const waiting = { ...s.waiting, since: s.waiting.since + stall }
        return e.now - waiting.since > t.timeoutMs ? giveUp(e.now) : { state: { ...ticked, waiting }, effects: [] }
      }
      if (s.phase === 'connecting') return e.now < s.retryAt ? { state: ticked, effects: [] } : { state: { ...ticked, waiting: { on: 'connect', since: e.now } }, effects: ['connect'] }
      const on = s.phase === 'leading' ? 'ping' : 'try'
      return { state: { ...ticked, waiting: { on, since: e.now } }, effects: [on] }
    }
  }
}
