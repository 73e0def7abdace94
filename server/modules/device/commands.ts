// The operator's device commands (server/cli.ts lists them): a device order's activation codes exist
// in clear only in the operator's output (at `ship`, or reissued here); only their hashes are stored.
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { unlessRefused, UsageError } from '../../commands/args.ts'
import { ORDER_ARG_RE, findOrderId } from '../orders/commands.ts'
import { CodesRefused, reissueCodes, type IssuedCode } from './service.ts'

export const DEVICE_COMMANDS: Command[] = [
  {
    words: ['device', 'codes'],
    args: '<order>',
    writes: true,
    needs: 'database',
    summary: 'issue new activation codes for a shipped device order’s devices not activated yet (the earlier codes stop working) and print them',
    async run(args, env) {
      if (args.length !== 1 || !ORDER_ARG_RE.test(args[0]!)) throw new UsageError('usage: device codes <order id | order number>')
      return unlessRefused(env, 'device codes', [CodesRefused], async () => {
        const id = await findOrderId(env.database().sql, args[0]!)
        if (id === null) throw new CodesRefused(`no order ${args[0]}`)
        printCodes(env, await reissueCodes({ ...env.database(), now: Date.now }, id))
        return 0
      })
    },
  },
]

/** Activation codes, one line per device: they exist in clear only in this output. */
export function printCodes(env: CommandEnv, codes: IssuedCode[]): void {
  if (codes.length === 0) return
  env.io.out(`activation codes (ship each with its device; only their hashes are kept):`)
  for (const c of codes) env.io.out(`  device #${c.device_id}  ${c.code}`)
}
