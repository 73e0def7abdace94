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
