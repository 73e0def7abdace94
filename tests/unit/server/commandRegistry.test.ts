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
})
