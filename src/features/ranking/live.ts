import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { RANKING_STREAM, type RankingPush } from '../../../contract/ranking.ts'
import { getSocket } from '../../api/socket.ts'
import { RANKING_ROOT } from './queries.ts'

/**
 * Keeps the ranking screen live (DESIGN §5): the `ranking` stream carries the pools (shown as pushed)
 * and a version of today's ranking; a new version refetches today's lists and the caller's rank.
 * Without the socket the queries' refetch on mount and focus still apply.
 */
export function useRankingLive(): void {
  const qc = useQueryClient()
  useEffect(() => {
    let seen: string | null = null
    return getSocket().subscribe<RankingPush>(RANKING_STREAM, (push) => {
      const p = push.data[0]
      if (!p) return
      qc.setQueryData([...RANKING_ROOT, 'pools'], p.pools)
      if (seen !== null && seen !== p.version) {
        for (const key of [
          [...RANKING_ROOT, 'daily', 'today'],
          [...RANKING_ROOT, 'mine', 'today'],
          [...RANKING_ROOT, 'total'],
        ]) {
          void qc.invalidateQueries({ queryKey: key })
        }
      }
      seen = p.version
    })
  }, [qc])
}
