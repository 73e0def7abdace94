// The operator ships a paid order (server/cli.ts lists it): express company and tracking number, then
// the user confirms receipt; a device order's activation codes are printed to ship with its devices.
import type { Command } from '../../commands/registry.ts'
import { unlessRefused, UsageError } from '../../commands/args.ts'
import { printCodes } from '../device/commands.ts'
import { ORDER_ARG_RE, findOrderId } from '../orders/commands.ts'
import { ShipRefused, shipOrder } from './service.ts'

export const SHIP_COMMANDS: Command[] = [
  {
    words: ['ship'],
    args: '<order> <company> <number>',
    writes: true,
    needs: 'database',
    summary: 'ship a paid order pending shipment with its express company and tracking number; the user then confirms receipt',
    async run(args, env) {
      if (args.length !== 3) throw new UsageError('usage: ship <order id | order number> <express company> <tracking number>')
      if (!ORDER_ARG_RE.test(args[0]!)) throw new UsageError(`not an order id or order number: ${args[0]}`)
      return unlessRefused(env, 'ship', [ShipRefused], async () => {
        const id = await findOrderId(env.database().sql, args[0]!)
        if (id === null) throw new ShipRefused(`no order ${args[0]}`)
        const o = await shipOrder({ ...env.database(), now: Date.now }, id, args[1]!, args[2]!)
        env.io.out(`order #${o.id} (${o.order_no}) shipped: ${o.express_company} ${o.express_no}; pending receipt`)
        printCodes(env, o.device_codes)
        return 0
      })
    },
  },
]
