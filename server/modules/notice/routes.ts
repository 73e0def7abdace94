import { Envelope, IdQuery, PageQuery, Paged } from '../../../contract/envelope.ts'
import { NoticeDetail, NoticeItem, NoticeRead, NoticeReadBody, NoticeUnread } from '../../../contract/notice.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import { requireAuth } from '../../http/auth.ts'
import { ok, publicCache } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { NoticeService } from './service.ts'

// Notices are public announcements: the home screen's ticker shows them to visitors too.
export function noticeRoutes(app: App, notices: NoticeService) {
  app.get(
    '/api/v1/notice/list',
    { schema: { tags: ['notice'], summary: 'Notices, pinned first, then newest', querystring: PageQuery, response: { 200: Envelope(Paged(NoticeItem)) } } },
    async (req, reply) => {
      publicCache(reply, 60)
      return ok(req, await notices.list(req.lang, req.query.page ?? 1, req.query.page_size ?? PAGE_SIZE_DEFAULT))
    },
  )
  app.get(
    '/api/v1/notice/detail',
    { schema: { tags: ['notice'], summary: 'One notice in the request language', querystring: IdQuery, response: { 200: Envelope(NoticeDetail) } } },
    async (req, reply) => {
      publicCache(reply, 300)
      return ok(req, await notices.detail(req.lang, req.query.id))
    },
  )

  // What the caller has read (issue 12 part 5) is per user: these two need a token and are never cached.
  app.get(
    '/api/v1/notice/unread',
    { preHandler: requireAuth, schema: { tags: ['notice'], summary: 'The caller’s unread live notices: the count and the newest ids', response: { 200: Envelope(NoticeUnread) } } },
    async (req) => ok(req, await notices.unread(req.user!.id)), // requireAuth guarantees a user
  )
  app.post(
    '/api/v1/notice/read',
    {
      preHandler: requireAuth,
      schema: { tags: ['notice'], summary: 'Marks a live notice read for the caller; marking it again changes nothing', body: NoticeReadBody, response: { 200: Envelope(NoticeRead) } },
    },
    async (req) => ok(req, await notices.markRead(req.user!.id, req.body.id)),
  )
}
