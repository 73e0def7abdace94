import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { NoticeUnread } from '../../../contract/notice.ts'
import { performOrQueue } from '../../app/outbox.ts'
import { NOTICE_READ_ACTION, withoutUnread, type NoticeReadPayload } from './read.ts'
import { UNREAD_KEY } from './queries.ts'

/** Marks a notice read now, or queues it offline (DESIGN §6); the unread mark goes at once either way. */
export function useMarkNoticeRead() {
  const qc = useQueryClient()
  return useMutation({
    // TanStack would otherwise pause the mutation offline; performOrQueue queues it instead.
    networkMode: 'always',
    meta: { silent: true },
    mutationFn: (id: number) => performOrQueue(NOTICE_READ_ACTION, { id } satisfies NoticeReadPayload),
    onSuccess: (_r, id) => qc.setQueryData<NoticeUnread>(UNREAD_KEY, (u) => withoutUnread(u, id)),
  })
}
