import type { QueryClient } from '@tanstack/react-query'
import type { NoticeRead } from '../../../contract/notice.ts'
import { post } from '../../api/client.ts'
import { registerOutboxAction } from '../../data/index.ts'
import { NOTICE_READ_ACTION, type NoticeReadPayload } from './read.ts'
import { UNREAD_KEY } from './queries.ts'

/**
 * Marking a notice read is harmless (DESIGN §6): made offline it waits in the outbox and is sent with
 * its idempotency key once the network is back (the server keeps one read however often it comes).
 * Registered at start, so a queue left by an earlier visit is sent without opening /notice.
 */
export function registerNoticeActions(qc: QueryClient): void {
  registerOutboxAction<NoticeReadPayload>(NOTICE_READ_ACTION, (payload, key) =>
    post<NoticeRead>('notice/read', payload, key).finally(() => void qc.invalidateQueries({ queryKey: UNREAD_KEY })),
  )
}
