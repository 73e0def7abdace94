// What each operator command needs beside role processes (server/commands/registry.ts, docs/processes.md
// "Operator commands"): the classification lives on the commands; these are its rules.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { classOf, refusedBesideRoles, type Command, type CommandClass } from '../../../server/commands/registry.ts'
import { COMMANDS } from '../../../server/cli.ts'

const CLASSES: readonly CommandClass[] = ['reads', 'stopped', 'database', 'memory', 'jobs', 'schema']
const named = (words: string) => {
  const c = COMMANDS.find((x) => x.words.join(' ') === words)
  if (!c) throw new Error(`no command ${words}`)
  return c
}
/** Whether the command's own code asks for the market (the exchange, whose engine keeps its book in memory). */
const asksForMarket = (c: Command) => /\.market\(\)/.test(String(c.run))

describe('what operator commands need beside role processes', () => {
  it('every registered command is classified, and only writing commands say what they need', () => {
    for (const c of COMMANDS) {
      expect(CLASSES, c.words.join(' ')).toContain(classOf(c))
      if (!c.writes) expect(c.needs, `${c.words.join(' ')} reads only`).toBeUndefined()
    }
    expect(COMMANDS.filter((c) => classOf(c) === 'database').length).toBeGreaterThan(10)
  })

  it('a command that touches the exchange is never one that needs only the database: market repair works on the engine in memory', () => {
    const touching = COMMANDS.filter((c) => c.writes && asksForMarket(c))
    expect(touching.map((c) => c.words.join(' '))).toContain('market repair')
    for (const c of touching) expect(classOf(c), c.words.join(' ')).not.toBe('database')
    expect(classOf(named('market repair'))).toBe('memory')
  })

  it("a job's pass is the jobs leader's, the schema is every process's, and the commands an operator runs day to day need only the database", () => {
    expect(classOf(named('release run'))).toBe('jobs')
    expect(classOf(named('activity pay'))).toBe('jobs')
    expect(classOf(named('migrate'))).toBe('schema')
    for (const words of ['withdraw approve', 'withdraw reject', 'ship', 'fund', 'release fund', 'car approve', 'catalog load', 'node load', 'airdrop', 'meme supply']) {
      expect(classOf(named(words)), words).toBe('database')
    }
    expect(classOf(named('restore'))).toBe('stopped')
    expect(classOf(named('audit'))).toBe('reads')
  })

  it('a writing command that does not say what it needs counts as needing a process’s memory, the side that is refused', () => {
    expect(classOf({ writes: true })).toBe('memory')
    expect(classOf({ writes: true, needs: 'database' })).toBe('database')
    expect(classOf({})).toBe('reads')
  })

  it("docs/processes.md's table of what operator commands need lists each writing command under its class", () => {
    const text = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/processes.md'), 'utf8')
    const listed = new Map<string, string>()
    for (const [, needs, cell] of text.matchAll(/^\| `(\w+)` \| (.+?) \| [^|]+ \|$/gm)) {
      // `car review\|approve\|reject` is car review, car approve and car reject.
      for (const [, item] of cell!.matchAll(/`([^`]+)`/g)) {
        const [first, ...others] = item!.split('\\|')
        const words = first!.split(' ')
        for (const last of [words.at(-1)!, ...others]) listed.set([...words.slice(0, -1), last].join(' '), needs!)
      }
    }
    const writing = COMMANDS.filter((c) => c.writes && !c.stopped)
    expect(Object.fromEntries(writing.map((c) => [c.words.join(' '), listed.get(c.words.join(' '))]))).toEqual(Object.fromEntries(writing.map((c) => [c.words.join(' '), classOf(c)])))
  })

  it('a refusal is one line naming the command, the role process beside it, and what to do', () => {
    for (const needs of ['memory', 'jobs', 'schema'] as const) {
      const line = refusedBesideRoles('market repair', needs, 'server --role jobs pid 4711 on host-b')
      expect(line.split('\n')).toHaveLength(1)
      expect(line).toMatch(/^refused: market repair /)
      expect(line).toContain('server --role jobs pid 4711 on host-b')
      expect(line).toContain('stop every role process (--role api|engine|jobs), then run it again')
    }
    expect(refusedBesideRoles('market repair', 'memory', 'x')).toContain("the market's engine and its book")
    expect(refusedBesideRoles('release run', 'jobs', 'x')).toContain("wait for the leader's next pass")
  })
})
