import { Envelope, Paged } from '../../../contract/envelope.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { TeamInfo, TeamListQuery, TeamMember } from '../../../contract/team.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { TeamService } from './service.ts'

// The caller's own team only: the user comes from the token, and no parameter names another user.
export function teamRoutes(app: App, team: TeamService) {
  app.get(
    '/api/v1/team/info',
    {
      preHandler: requireAuth,
      schema: { tags: ['team'], summary: 'The caller’s team figures: direct and team counts and performance, and the elite, core and genesis nodes held in the team', response: { 200: Envelope(TeamInfo) } },
    },
    async (req) => ok(req, await team.info(req.user!.id)), // requireAuth guarantees a user
  )

  app.get(
    '/api/v1/team/list',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['team'],
        summary: 'The caller’s whole team, nearest generation first then by ID, paged; or the member with an exact ID (search). A page past the last and a search that is not an ID are refused',
        querystring: TeamListQuery,
        response: { 200: Envelope(Paged(TeamMember)) },
      },
    },
    async (req) => ok(req, await team.list(req.user!.id, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT, req.query.search)),
  )
}
