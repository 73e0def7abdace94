import { Type, type Static } from 'typebox'
import { Millis } from './envelope.ts'

export const NoticeItem = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  pinned: Type.Boolean(),
  published_at: Millis,
})
export type NoticeItem = Static<typeof NoticeItem>

export const NoticeDetail = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  pinned: Type.Boolean(),
  published_at: Millis,
})
export type NoticeDetail = Static<typeof NoticeDetail>

/** The caller's unread live notices: how many, and the newest ids (at most 100) for the list to mark. */
export const NoticeUnread = Type.Object({ count: Type.Integer({ minimum: 0 }), ids: Type.Array(Type.Integer()) })
export type NoticeUnread = Static<typeof NoticeUnread>

export const NoticeReadBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) }, { additionalProperties: false })
export type NoticeReadBody = Static<typeof NoticeReadBody>

export const NoticeRead = Type.Object({ id: Type.Integer(), read: Type.Boolean() })
export type NoticeRead = Static<typeof NoticeRead>
