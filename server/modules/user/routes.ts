import { Envelope, PageQuery, Paged } from '../../../contract/envelope.ts'
import { UserInfo, ZhiItem } from '../../../contract/user.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { UserService } from './service.ts'

export function userRoutes(app: App, users: UserService) {
  app.get(
    '/api/v1/user/info',
    { preHandler: requireAuth, schema: { tags: ['user'], summary: 'The signed-in user with team counts and performances', response: { 200: Envelope(UserInfo) } } },
    async (req) => ok(req, await users.info(req.user!.id)), // requireAuth guarantees a user
  )

  app.get(
    '/api/v1/user/zhiList',
    {
      preHandler: requireAuth,
      schema: { tags: ['user'], summary: 'Direct referrals, newest first', querystring: PageQuery, response: { 200: Envelope(Paged(ZhiItem)) } },
    },
    async (req) => ok(req, await users.zhiList(req.user!.id, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT)),
  )
}
