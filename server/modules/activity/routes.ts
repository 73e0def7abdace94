import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { Envelope, Paged } from '../../../contract/envelope.ts'
import { ActivityDetail, ActivityIdQuery, ActivityItem, ActivityListQuery, ActivityRank, ActivityRankQuery, RANK_LIMIT_DEFAULT } from '../../../contract/activity.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { ActivityService } from './service.ts'

// SPEC §2: /activity needs a signed-in user. Nothing here writes: participation is automatic.
export function activityRoutes(app: App, activities: ActivityService): void {
  const tags = ['activity']
  const auth = { preHandler: requireAuth }
  app.get(
    '/api/v1/activity/list',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Activities by status (upcoming, running, ended; all when left out), in the request language; a page past the last is refused',
        querystring: ActivityListQuery,
        response: { 200: Envelope(Paged(ActivityItem)) },
      },
    },
    async (req) => ok(req, await activities.list(req.lang, req.query.status, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
  app.get(
    '/api/v1/activity/detail',
    { ...auth, schema: { tags, summary: 'One activity: texts, cover, window, measure, prizes, and the server time for its countdown', querystring: ActivityIdQuery, response: { 200: Envelope(ActivityDetail) } } },
    async (req) => ok(req, await activities.detail(req.lang, req.query.id)),
  )
  app.get(
    '/api/v1/activity/rank',
    {
      ...auth,
      schema: {
        tags,
        summary:
          'The live leaderboard: the top `limit` and the caller\'s own place pinned even outside the top (null before their first score), or the place of `user_id` (the caller or a member of their team only; anyone else refused alike), refused when that user has no score; refused before the start. Once paid, the paid ranks as paid',
        querystring: ActivityRankQuery,
        response: { 200: Envelope(ActivityRank) },
      },
    },
    async (req) => ok(req, await activities.rank(req.lang, req.query.id, req.user!.id, req.query.limit ?? RANK_LIMIT_DEFAULT, req.query.user_id)),
  )
}
