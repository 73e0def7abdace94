import { infiniteQueryOptions } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { PAGE_SIZE_DEFAULT } from '../../../contract/constants.ts'
import type { CarApplication } from '../../../contract/car.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { get } from '../../api/client.ts'
import { fetchUploadedFile } from './applyUpload.ts'
import { isWaiting } from './applyStatus.ts'

// The car application's data (car/applyList). The key's root is saved with the account's cache
// (src/data/persister.ts), so the list shows offline with what was last seen. The cars to choose from
// are the car shop's (./queries.ts).

export const CAR_APPLY_ROOT = 'carApply'
export const PAGE_SIZE = PAGE_SIZE_DEFAULT
/** While an application waits for the operator, the list looks again this often (the decision comes from outside). */
export const WAITING_POLL_MS = 10_000

export const applyQueries = {
  list: () =>
    infiniteQueryOptions({
      queryKey: [CAR_APPLY_ROOT, 'list'],
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) => get<PagedList<CarApplication>>('car/applyList', { page: pageParam, page_size: PAGE_SIZE }, signal),
      getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
      staleTime: 30_000,
      refetchInterval: (q) => (q.state.data?.pages.some((p) => p.list.some((a) => isWaiting(a.status))) ? WAITING_POLL_MS : false),
    }),
}

/**
 * A preview of one of the user's uploaded files, read back from the server (so it shows what was
 * stored): an object URL while the caller is mounted, revoked after. Never cached or saved.
 */
export function useUploadedPreview(key: string | null, enabled: boolean): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ key: string | null; url: string | null; failed: boolean }>({ key: null, url: null, failed: false })
  useEffect(() => {
    if (!key || !enabled) return
    const ctl = new AbortController()
    let url: string | null = null
    fetchUploadedFile(key, ctl.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob)
        setState({ key, url, failed: false })
      },
      () => {
        if (!ctl.signal.aborted) setState({ key, url: null, failed: true })
      },
    )
    return () => {
      ctl.abort()
      if (url) URL.revokeObjectURL(url)
    }
  }, [key, enabled])
  return state.key === key ? { url: state.url, failed: state.failed } : { url: null, failed: false }
}
