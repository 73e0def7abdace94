import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../server/config.ts'
import { argvSettings, readRoleSettings } from '../../../server/roles/settings.ts'

const PG = { databaseUrl: 'postgres://nadi@db/nadi', devChains: false }

describe('the role of a process', () => {
  it('is all unless NADI_ROLE says otherwise; role processes ask for the leadership every second by default', () => {
    expect(readRoleSettings({}, { databaseUrl: null, devChains: true })).toEqual({ role: 'all', leaderEveryMs: 1000 })
    expect(readRoleSettings({ NADI_ROLE: 'jobs', NADI_LEADER_EVERY_MS: '250' }, PG)).toEqual({ role: 'jobs', leaderEveryMs: 250 })
    expect(readRoleSettings({ NADI_ROLE: 'api' }, PG).role).toBe('api')
  })

  it('an unknown role names the ones there are', () => {
    expect(readRoleSettings({ NADI_ROLE: 'engine' }, PG).role).toBe('engine')
    expect(() => readRoleSettings({ NADI_ROLE: 'matcher' }, PG)).toThrow('NADI_ROLE (--role) must be all, api, engine or jobs, got "matcher"')
    expect(() => readRoleSettings({ NADI_ROLE: 'Jobs' }, PG)).toThrow(/got "Jobs"/)
  })

  it('a role process needs PostgreSQL and real chains, each refused in one line that says why', () => {
    expect(() => readRoleSettings({ NADI_ROLE: 'jobs' }, { databaseUrl: null, devChains: false })).toThrow(
      '--role jobs needs PostgreSQL (NADI_DATABASE_URL): processes share the work only through it; on SQLite one process does everything (--role all)',
    )
    expect(() => readRoleSettings({ NADI_ROLE: 'api' }, { ...PG, devChains: true })).toThrow(
      '--role api cannot start dev chains of its own (NADI_DEV_CHAINS=1): each process would have chains of its own; run them once as their own process (npm run chains) and give every process their address in NADI_DEV_CHAINS_URL (npm run shape does both), or use --role all',
    )
  })

  it('a role process runs on the dev chains of the chains process, which every role process shares', () => {
    const shared = { ...PG, devChains: true, devChainsUrl: 'http://127.0.0.1:8070' }
    for (const role of ['api', 'engine', 'jobs']) expect(readRoleSettings({ NADI_ROLE: role }, shared).role).toBe(role)
    const config = loadConfig({ NADI_ENV: 'test', NADI_ROLE: 'jobs', NADI_DATABASE_URL: 'postgres://nadi@db/nadi', NADI_DEV_CHAINS_URL: 'http://127.0.0.1:8070' }, '/srv')
    expect([config.role, config.chain.devChains, config.chain.devChainsUrl]).toEqual(['jobs', true, 'http://127.0.0.1:8070'])
    expect(() => loadConfig({ NADI_ENV: 'test', NADI_ROLE: 'jobs', NADI_DATABASE_URL: 'postgres://nadi@db/nadi', NADI_DEV_CHAINS: '1' }, '/srv')).toThrow(/cannot start dev chains of its own/)
  })

  it('is part of the config, checked against its database', () => {
    expect(loadConfig({ NADI_ENV: 'test' }, '/srv').role).toBe('all')
    expect(loadConfig({ NADI_ENV: 'test', NADI_ROLE: 'jobs', NADI_DATABASE_URL: 'postgres://nadi@db/nadi' }, '/srv').role).toBe('jobs')
    expect(() => loadConfig({ NADI_ENV: 'test', NADI_ROLE: 'jobs' }, '/srv')).toThrow(/needs PostgreSQL/)
  })

  it('the command line gives --role as NADI_ROLE, in either spelling, and refuses anything else', () => {
    expect(argvSettings([])).toEqual({})
    expect(argvSettings(['--role', 'jobs'])).toEqual({ NADI_ROLE: 'jobs' })
    expect(argvSettings(['--role=api'])).toEqual({ NADI_ROLE: 'api' })
    expect(() => argvSettings(['--role'])).toThrow('--role needs a value: all, api, engine, jobs')
    expect(() => argvSettings(['--rol', 'jobs'])).toThrow('unknown argument "--rol": the server takes --role all|api|engine|jobs')
  })
})
