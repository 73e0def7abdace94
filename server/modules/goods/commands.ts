// The operator's goods commands (server/cli.ts lists them): the catalogs (devices, gold, cars) are
// loaded from a file (./catalogFile.ts), and the gold reference price the mall prices gold from is set.
import { formatMoney } from '../../../contract/money.ts'
import type { Command } from '../../commands/registry.ts'
import { positiveAmount, readJsonFile, unlessRefused, UsageError } from '../../commands/args.ts'
import { CatalogInvalid, checkCatalog, loadCatalog } from './load.ts'
import { readGoldPrice, recordGoldPrice } from './service.ts'

export const CATALOG_COMMANDS: Command[] = [
  {
    words: ['catalog', 'load'],
    args: '<file.json>',
    writes: true,
    needs: 'database',
    summary: 'load devices, gold and cars from a catalog file (slugs are keys: a product is updated, a new one added, none deleted)',
    async run(args, env) {
      if (args.length !== 1) throw new UsageError('usage: catalog load <file.json>')
      return unlessRefused(env, 'catalog load', [CatalogInvalid, SyntaxError], async () => {
        const file = checkCatalog(readJsonFile(args[0]!))
        const db = env.database()
        const sum = await db.sql.transaction((tx) => loadCatalog(db, tx, file, Date.now()))
        env.io.out(
          `catalog loaded: ${sum.products.added} products added, ${sum.products.updated} updated; ${sum.specs.added} specifications added, ${sum.specs.updated} updated; ${sum.categories} categories; ${sum.mallBanners} mall banners`,
        )
        return 0
      })
    },
  },
]

export const GOLD_COMMANDS: Command[] = [
  {
    words: ['gold', 'price'],
    args: '<usdt per gram>',
    writes: true,
    needs: 'database',
    summary: 'record the gold reference price per gram; gold orders from now on are priced from it',
    async run(args, env) {
      const price = args.length === 1 ? positiveAmount(args[0]!) : null
      if (price === null) throw new UsageError('usage: gold price <usdt per gram, e.g. 98.25>')
      const db = env.database()
      const before = await db.sql.transaction(async (tx) => {
        const was = await readGoldPrice(tx, env.config.commerce.goldPrice)
        await recordGoldPrice(db, tx, Date.now(), price)
        return was
      })
      env.io.out(`gold price ${formatMoney(price)} USDT/g (was ${formatMoney(before)})`)
      return 0
    },
  },
]
