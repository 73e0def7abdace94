import { Type } from 'typebox'
import { Banner, MainInfo, PublicConfig } from '../../../contract/common.ts'
import { Envelope } from '../../../contract/envelope.ts'
import { ok, publicCache } from '../../http/reply.ts'
import type { App } from '../../http/types.ts'
import type { CommonService } from './service.ts'

export function commonRoutes(app: App, common: CommonService) {
  app.get(
    '/api/v1/common/bannerList',
    { schema: { tags: ['common'], summary: 'Home banners in the request language', response: { 200: Envelope(Type.Array(Banner)) } } },
    async (req, reply) => {
      publicCache(reply, 300)
      return ok(req, await common.bannerList(req.lang))
    },
  )
  app.get(
    '/api/v1/common/mainInfo',
    { schema: { tags: ['common'], summary: 'Platform figures for the home screen', response: { 200: Envelope(MainInfo) } } },
    async (req, reply) => {
      publicCache(reply, 30)
      return ok(req, await common.mainInfo())
    },
  )
  app.get(
    '/api/v1/common/config',
    { schema: { tags: ['common'], summary: 'Languages, chains, limits and notices the app needs', response: { 200: Envelope(PublicConfig) } } },
    async (req, reply) => {
      publicCache(reply, 300)
      return ok(req, common.config())
    },
  )
  app.get(
    '/api/v1/common/health',
    { schema: { tags: ['common'], summary: 'Liveness, also the app’s online check', response: { 200: Envelope(Type.Object({ time: Type.Integer() })) } } },
    async (req) => ok(req, { time: common.now() }),
  )
}
