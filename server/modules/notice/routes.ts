import { Envelope, IdQuery, PageQuery, Paged } from '../../../contract/envelope.ts'
import { NoticeDetail, NoticeItem } from '../../../contract/notice.ts'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
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
}
