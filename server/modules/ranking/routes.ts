import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope } from '../../../contract/envelope.ts'
import { DailyQuery, DailyRanking, MineQuery, MyRanking, RankingPools, TotalQuery, TotalRanking } from '../../../contract/ranking.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { RankingService } from './service.ts'

/** The ranking (issue 12 part 3): reads only; the pools move in the settlement and by the operator's command. */
export function rankingRoutes(app: App, ranking: RankingService): void {
  const tags = ['ranking']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/ranking/pools',
    { ...auth, schema: { tags, summary: 'The daily and total prize pools: balance per asset, today’s accrual so far, their share of the income and the prize per rank', response: { 200: Envelope(RankingPools) } } },
    async (req) => ok(req, await ranking.pools()),
  )
  app.get(
    '/api/v1/ranking/daily',
    {
      ...auth,
      schema: {
        tags,
        summary: 'The daily ranking: today live (no day), or a past day with its prizes; paged. A day after today or a page past the last is refused',
        querystring: DailyQuery,
        response: { 200: Envelope(DailyRanking) },
      },
    },
    async (req) => ok(req, await ranking.daily(req.query.day, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/ranking/total',
    { ...auth, schema: { tags, summary: 'The total ranking since launch (team performance), with the last total payout’s prizes; paged', querystring: TotalQuery, response: { 200: Envelope(TotalRanking) } } },
    async (req) => ok(req, await ranking.total(req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/ranking/mine',
    { ...auth, schema: { tags, summary: 'The caller’s own rank, amount and prize: in a day’s ranking (today by default) and in the total', querystring: MineQuery, response: { 200: Envelope(MyRanking) } } },
    async (req) => ok(req, await ranking.mine(req.user!.id, req.query.day)),
  )
}
