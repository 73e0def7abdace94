import { envInt, envString, type Env } from '../settings.ts'

// What this process does (issue 19, docs/processes.md): everything (all, one process as always), or
// one part of the work beside other processes on one PostgreSQL database.

/**
 * all: HTTP, sockets, the engine and every job, alone on the database. api: HTTP and sockets; trading
 * commands go to the engine. engine: the market's engine, while this process leads that market's
 * election. jobs: every background job, while this process leads the jobs election. engine and jobs
 * answer no HTTP but a health check.
 */
export const ROLES = ['all', 'api', 'engine', 'jobs'] as const
export type Role = (typeof ROLES)[number]

export interface RoleSettings {
  /** NADI_ROLE or --role (all). */
  role: Role
  /** NADI_LEADER_EVERY_MS (1000): how often a standby asks for the leadership and a leader heartbeats. */
  leaderEveryMs: number
}

/**
 * The role, checked against what it needs: role processes share PostgreSQL, and chains — real ones, or
 * the dev chains of one process of their own (`devChainsUrl`, NADI_DEV_CHAINS_URL), never a pair each.
 */
export function readRoleSettings(env: Env, needs: { databaseUrl: string | null; devChains: boolean; devChainsUrl?: string | null }): RoleSettings {
  const role = envString(env, 'NADI_ROLE', 'all')
  if (!(ROLES as readonly string[]).includes(role)) throw new Error(`NADI_ROLE (--role) must be ${ROLES.slice(0, -1).join(', ')} or ${ROLES.at(-1)}, got "${role}"`)
  if (role !== 'all' && needs.databaseUrl === null) {
    throw new Error(`--role ${role} needs PostgreSQL (NADI_DATABASE_URL): processes share the work only through it; on SQLite one process does everything (--role all)`)
  }
  if (role !== 'all' && needs.devChains && !needs.devChainsUrl) {
    throw new Error(
      `--role ${role} cannot start dev chains of its own (NADI_DEV_CHAINS=1): each process would have chains of its own; run them once as their own process (npm run chains) and give every process their address in NADI_DEV_CHAINS_URL (npm run shape does both), or use --role all`,
    )
  }
  return { role: role as Role, leaderEveryMs: envInt(env, 'NADI_LEADER_EVERY_MS', 1000, 100, 60_000) }
}

/**
 * The server's command line (`npm run serve -- --role jobs`) as settings: `--role X` or `--role=X` is
 * NADI_ROLE. Anything else is refused, so a mistyped flag never starts a process doing something else.
 */
export function argvSettings(argv: readonly string[]): Env {
  const out: Env = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const m = /^--role(?:=(.*))?$/.exec(a)
    if (!m) throw new Error(`unknown argument "${a}": the server takes --role ${ROLES.join('|')} (settings are NADI_* variables, docs/settings.md)`)
    const value = m[1] ?? argv[++i]
    if (value === undefined || value === '') throw new Error(`--role needs a value: ${ROLES.join(', ')}`)
    out.NADI_ROLE = value
  }
  return out
}
