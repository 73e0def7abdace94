// The operators' commands (issue 35) beside a running server: the first admin is added by the CLI, every
// write is on the operator log as the operator `--as` names or the OS user who typed it, `operator
// remove` ends that operator's sessions at once, and `oplog` prints the log with its filters.
import { describe, expect, it } from 'vitest'
import { main as cli } from '../../server/cli.ts'
import { opsSocketPath, osUser, sendOps } from '../../server/ops.ts'
import { freshWallet, useServers, type TestServer } from './support/server.ts'
import { operatorEnv } from './support/operatorEnv.ts'
import { OP, operatorSignIn } from './support/operators.ts'
import type { OplogEntry } from '../../contract/operator.ts'

const start = useServers({ env: { NADI_DEMO: '0' } })

async function run(s: TestServer, ...argv: string[]) {
  let out = ''
  let err = ''
  const code = await cli(argv, { env: operatorEnv(s.config), io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) } })
  // Whether the server ran it for the CLI (it holds the data folder) is not what these tests are about.
  return { code, out, err: err.replace(/^\(run inside [^\n]*\n/, '') }
}

const logged = async (s: TestServer, ...filters: string[]) => (JSON.parse((await run(s, 'oplog', '--json', ...filters)).out) as { list: OplogEntry[] }).list

describe('operator commands', () => {
  it('the first admin is added by the CLI, logged as the OS user; later writes name their operator with --as', async () => {
    const s = await start()
    expect(await run(s, 'operator', 'list')).toMatchObject({ code: 0, out: 'no operators (add the first admin: operator add <address> admin)\n' })
    const admin = freshWallet()
    const first = await run(s, 'operator', 'add', admin.address.toLowerCase(), 'admin', 'first', 'admin')
    expect(first).toMatchObject({ code: 0, out: `operator added: ${admin.address} admin (by cli:${osUser()})\n` })

    const support = freshWallet()
    expect((await run(s, 'operator', 'add', support.address, 'support', 'hired for shipping', '--as', admin.address)).code).toBe(0)
    const listed = (await run(s, 'operator', 'list')).out.split('\n').filter(Boolean)
    expect(listed.map((l) => l.split(' ').filter(Boolean).slice(0, 2))).toEqual([
      [admin.address, 'admin'],
      [support.address, 'support'],
    ])
    expect(listed[1]).toMatch(new RegExp(`by ${admin.address}$`))

    expect((await logged(s)).map(({ actor, role, action, object_id, before, after, reason }) => ({ actor, role, action, object_id, before, after, reason }))).toEqual([
      { actor: admin.address, role: 'admin', action: 'operator.add', object_id: support.address, before: null, after: { address: support.address, role: 'support' }, reason: 'hired for shipping' },
      { actor: `cli:${osUser()}`, role: null, action: 'operator.add', object_id: admin.address, before: null, after: { address: admin.address, role: 'admin' }, reason: 'first admin' },
    ])
    const printed = (await run(s, 'oplog')).out.split('\n')
    expect(printed[0]).toMatch(new RegExp(`^#2 \\S+Z ${admin.address} \\(admin\\) operator.add operator:${support.address} - -> \\{"address":"${support.address}","role":"support"\\} "hired for shipping"$`))
  })

  it('bad addresses, roles and --as are refused, and write nothing', async () => {
    const s = await start()
    const wallet = freshWallet()
    expect(await run(s, 'operator', 'add', '0x1234', 'admin')).toMatchObject({ code: 2, err: 'operator add: "0x1234" is not a wallet address (0x and 40 hex digits)\n' })
    expect(await run(s, 'operator', 'add', wallet.address, 'root')).toMatchObject({ code: 2, err: 'operator add: the role is one of viewer, support, finance, admin, got "root"\n' })
    expect(await run(s, 'operator', 'add', wallet.address)).toMatchObject({ code: 2 })
    expect(await run(s, 'operator', 'add', wallet.address, 'viewer', '--as')).toMatchObject({ code: 2, err: 'operator add: --as takes a value\n' })
    const stranger = freshWallet().address
    expect(await run(s, 'operator', 'add', wallet.address, 'viewer', '--as', stranger)).toMatchObject({ code: 1, err: `operator add: ${stranger} is not an operator\n` })
    expect(await run(s, 'operator', 'remove', wallet.address)).toMatchObject({ code: 1, err: `operator remove: ${wallet.address} is not an operator\n` })
    expect(await s.count('SELECT count(*) FROM operators')).toBe(0)
    expect(await s.count('SELECT count(*) FROM oplog')).toBe(0)

    expect((await run(s, 'operator', 'add', wallet.address, 'viewer')).code).toBe(0)
    expect(await run(s, 'operator', 'add', wallet.address.toLowerCase(), 'admin')).toMatchObject({ code: 1, err: `operator add: ${wallet.address} is already an operator (viewer)\n` })
    expect(await s.count('SELECT count(*) FROM oplog')).toBe(1)
  })

  it("operator remove ends that operator's sessions at once and logs who they were", async () => {
    const s = await start()
    const finance = freshWallet()
    await run(s, 'operator', 'add', finance.address, 'finance')
    const { token } = await operatorSignIn(s, finance)
    expect((await s.get(`${OP}/oplog`, { token })).statusCode).toBe(200)
    const removed = await run(s, 'operator', 'remove', finance.address, 'lost', 'their', 'phone')
    expect(removed).toMatchObject({ code: 0, out: `operator removed: ${finance.address} (was finance; by cli:${osUser()})\n` })
    expect((await s.get(`${OP}/oplog`, { token })).statusCode).toBe(401)
    expect((await logged(s, '--object', `operator:${finance.address.toLowerCase()}`))[0]).toMatchObject({ action: 'operator.remove', before: { address: finance.address, role: 'finance' }, after: null, reason: 'lost their phone' })
    // Removed, the address may be added again: a new row, the old one kept for the log.
    expect((await run(s, 'operator', 'add', finance.address, 'viewer')).code).toBe(0)
    expect(await s.count('SELECT count(*) FROM operators')).toBe(2)
  })

  it('a command the server runs for the CLI is logged as the OS user who sent it', async () => {
    const s = await start()
    const wallet = freshWallet()
    const r = await sendOps(opsSocketPath(s.config.lockFile), ['operator', 'add', wallet.address, 'viewer'], 10_000, 'alice')
    expect(r).toMatchObject({ code: 0, out: `operator added: ${wallet.address} viewer (by cli:alice)\n` })
    expect((await logged(s, '--operator', 'cli:alice')).map((e) => e.object_id)).toEqual([wallet.address])
  })

  it('oplog filters by object, operator and moment, and refuses what it cannot read', async () => {
    const s = await start()
    const admin = freshWallet()
    await run(s, 'operator', 'add', admin.address, 'admin')
    const others = [freshWallet(), freshWallet()]
    for (const o of others) await run(s, 'operator', 'add', o.address, 'viewer', '--as', admin.address)
    expect((await logged(s, '--operator', admin.address.toLowerCase())).map((e) => e.object_id)).toEqual([others[1]!.address, others[0]!.address])
    expect((await logged(s, '--object', `operator:${others[0]!.address}`)).map((e) => e.object_id)).toEqual([others[0]!.address])
    expect(await logged(s, '--since', new Date(Date.now() + 3_600_000).toISOString())).toEqual([])
    expect(await logged(s, '--since', '2020-01-01')).toHaveLength(3)
    expect((await run(s, 'oplog', '--limit', '1')).out).toMatch(/\n\(1 of 3; --limit for more\)\n$/)
    expect(await run(s, 'oplog', '--since', 'yesterday')).toMatchObject({ code: 2 })
    expect(await run(s, 'oplog', '--limit', '0')).toMatchObject({ code: 2 })
    expect(await run(s, 'oplog', '--object', 'Op:1')).toMatchObject({ code: 2 })
    expect(await run(s, 'oplog', 'extra')).toMatchObject({ code: 2, err: 'oplog: unexpected extra\n' })
  })
})
