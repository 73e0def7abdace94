// The operator's airdrop commands (server/cli.ts lists them): MEME the hot wallet holds is entered in
// the treasury (`meme supply`), and an airdrop credits users from the treasury, multiplied by their nodes.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { unlessRefused, UsageError } from '../../commands/args.ts'
import * as ledger from '../../ledger/index.ts'
import { airdropMultipliers } from '../node/airdrop.ts'
import { isoDay } from '../settlement/service.ts'
import { AIRDROP_USAGE, parseAirdrop, parseMemeSupply, parseUserList } from './rules.ts'
import { AirdropRefused, airdrop } from './service.ts'

export const AIRDROP_COMMANDS: Command[] = [
  {
    words: ['airdrop'],
    args: '<id> <asset> <amount-per-user> [--users <file>|all] [--day <YYYY-MM-DD>]',
    writes: true,
    needs: 'database',
    summary: 'credit every listed user (a file of user ids or wallet addresses, one a line; default all) the amount × the highest airdrop multiplier of the nodes they hold that day (default today, UTC), from the treasury; once per (id, user): a re-run credits only who was not yet',
    async run(args, env) {
      const req = parseAirdrop(args)
      if ('problem' in req) throw new UsageError(req.problem)
      let who: 'all' | Exclude<ReturnType<typeof parseUserList>, { problem: string }> = 'all'
      if (req.users !== 'all') {
        let text: string
        try {
          text = fs.readFileSync(path.resolve(req.users.file), 'utf8')
        } catch (err) {
          throw new UsageError(`airdrop: cannot read ${req.users.file}: ${err instanceof Error ? err.message : String(err)}\n${AIRDROP_USAGE}`)
        }
        const list = parseUserList(text)
        if ('problem' in list) throw new UsageError(list.problem)
        who = list
      }
      const db = env.database()
      return unlessRefused(
        env,
        'airdrop',
        [AirdropRefused],
        async () => {
          const terms = { id: req.id, asset: req.asset, perUser: req.perUser, users: who, day: req.day }
          const r = await db.sql.transaction((tx) => airdrop(tx, terms, Date.now(), (day) => airdropMultipliers(tx, day)))
          env.io.out(
            `airdrop ${req.id} (${isoDay(r.day)}): ${r.credited} users credited ${formatMoney(r.total)} ${req.asset}` +
              ` (${formatMoney(req.perUser)} each, ${r.multiplied} multiplied by their nodes); ${r.already} already credited before; treasury: ${formatMoney(r.treasury)} ${req.asset}`,
          )
          return 0
        },
        (message) => `${message}; nothing was credited`,
      )
    },
  },
  {
    words: ['meme', 'supply'],
    args: '<amount> [--chain <key>]',
    writes: true,
    needs: 'database',
    summary: 'enter MEME the platform holds on a chain (its hot wallet: the dev chains mint it there) in the treasury, from that chain\'s custody, so `airdrop <id> MEME …` can credit it; each call is a new supply',
    async run(args, env) {
      const req = parseMemeSupply(args, env.config.chain.networks.map((n) => n.key))
      if ('problem' in req) throw new UsageError(req.problem)
      const db = env.database()
      const ref = `meme:supply:${crypto.randomUUID()}`
      await ledger.transfer(db.sql, { ref, reason: 'treasury_fund', userId: null, from: ledger.custody(req.chain), to: ledger.TREASURY, asset: 'MEME', amount: req.amount, at: Date.now() })
      env.io.out(`treasury: ${formatMoney((await ledger.balance(db.sql, ledger.TREASURY, 'MEME')).available)} MEME (+${formatMoney(req.amount)} from ${req.chain})`)
      return 0
    },
  },
]
