import { describe, expect, it } from 'vitest'
import { commandUsage, matchCommand, registerCommands, type Command } from '../../../server/commands/registry.ts'
import { COMMANDS } from '../../../server/cli.ts'

const cmd = (words: string[], summary = words.join(' ')): Command => ({ words, args: '', summary, run: () => 0 })

describe('the command registry', () => {
  it('refuses the same words registered twice, by two modules or one', () => {
    expect(() => registerCommands([cmd(['audit'])], [cmd(['audit'], 'another audit')])).toThrow(/two commands are registered as "audit"/)
    expect(() => registerCommands([cmd(['Bad Word'])])).toThrow(/lower-case words/)
  })

  it('matches the longest words first, and answers the rest as arguments', () => {
    const all = registerCommands([cmd(['withdraw']), cmd(['withdraw', 'approve'])])
    expect(matchCommand(all, ['withdraw', 'approve', '7'])).toMatchObject({ command: { words: ['withdraw', 'approve'] }, args: ['7'] })
    expect(matchCommand(all, ['withdraw', 'list'])).toMatchObject({ command: { words: ['withdraw'] }, args: ['list'] })
    expect(matchCommand(all, ['nothing'])).toBeNull()
  })

  it("the CLI's usage lists every registered command, the modules' and the database's included", () => {
    const text = commandUsage(COMMANDS)
    for (const c of COMMANDS) expect(text).toContain(`  ${c.words.join(' ')}`)
    for (const words of ['ranking status', 'activity load', 'settlement status', 'orders list', 'migrate', 'backup', 'restore', 'move-to']) expect(text).toContain(`  ${words}`)
  })

  it('every command the modules own is registered exactly once, each with one usage line', () => {
    const names = COMMANDS.map((c) => c.words.join(' '))
    expect(new Set(names).size).toBe(names.length)
    const lines = commandUsage(COMMANDS).split('\n').filter((l) => l.startsWith('  '))
    expect(lines).toHaveLength(COMMANDS.length)
    for (const c of COMMANDS) expect(c.summary.trim()).not.toBe('')
    const moved = ['audit', 'withdraw list', 'withdraw approve', 'withdraw reject', 'car list', 'car review', 'car approve', 'car reject', 'market check', 'market repair', 'catalog load', 'pledge load', 'pledge list', 'node load', 'node list', 'ship', 'device codes', 'gold price', 'release status', 'release run', 'release fund', 'fund', 'airdrop', 'meme supply']
    for (const words of moved) expect(names.filter((n) => n === words)).toHaveLength(1)
  })
})
