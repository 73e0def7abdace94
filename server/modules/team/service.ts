// The team view (issue 12 parts 1 and 2): the caller's whole team, breadth first, paged, or one member
// found by exact ID; and the team's figures. Reads only: the figures are kept up the tree by the
// transactions that change them (user/performance.ts), so nothing here walks a whole subtree.
import { getAddress } from 'ethers'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney } from '../../../contract/money.ts'
import type { TeamInfo, TeamMember } from '../../../contract/team.ts'
import { pageCount, parseTeamSearch, TEAM_LIST_SHOWN } from '../../../contract/teamRules.ts'
import type { Ctx } from '../../context.ts'
import { statement, statements } from '../../db/query/types.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { agentSql } from './agent.ts'

/** A member as stored, with their advanced-agent right. */
const MEMBER = `u.id, u.name, u.wallet_address, u.level, u.zhi_num, u.team_num, u.me_performance, u.team_performance, u.created_at, ${agentSql('u')} AS agent`

/** For each member the walk hands out (down): step 0 its first child, step 1 its next sibling. */
const NEXT = `CASE step.k WHEN 0 THEN (SELECT min(c.id) FROM users c WHERE c.inviter_id = down.id)
                ELSE (SELECT min(c.id) FROM users c WHERE c.inviter_id = down.parent AND c.id > down.id) END`

const TEXT = {
  me: 'SELECT id, depth, zhi_num, team_num, zhi_performance, team_performance, team_elite, team_core, team_genesis FROM users WHERE id = @me',
  // Breadth first from the caller, in (generation, id) order, without ever queueing a member's whole
  // list of children: the walk goes child to child. Each member it hands out brings in at most two
  // more, each one step along users_inviter (inviter_id, id): their first child (next generation)
  // and their next sibling (same parent, next id). A priority queue on (generation, id) merges those
  // sorted sibling chains into the global order, and the LIMIT stops the walk at the end of the page,
  // so the first page costs a few dozen index steps whether the caller has 10 or 100,000 children.
  page: `WITH RECURSIVE down(id, parent, gen) AS (
           SELECT first, @me, 1 FROM (SELECT min(id) AS first FROM users WHERE inviter_id = @me) WHERE first IS NOT NULL
           UNION ALL
           SELECT ${NEXT}, CASE step.k WHEN 0 THEN down.id ELSE down.parent END, down.gen + (step.k = 0)
             FROM down, (SELECT 0 AS k UNION ALL SELECT 1) AS step
            WHERE ${NEXT} IS NOT NULL
           ORDER BY 3, 1
           LIMIT @upTo
         )
         SELECT ${MEMBER}, down.gen AS generation
           FROM down JOIN users u ON u.id = down.id
          ORDER BY down.gen, down.id
          LIMIT @size OFFSET @skip`,
  // Is @target below @me? Walk up from the target while above the caller's depth (depth = the
  // inviter's + 1), at most generation steps, and see whether the walk ends on the caller.
  below: `WITH RECURSIVE up(id, depth) AS (
            SELECT inviter_id, depth - 1 FROM users WHERE id = @target AND depth > @depth
            UNION ALL
            SELECT u.inviter_id, up.depth - 1 FROM up JOIN users u ON u.id = up.id WHERE up.depth > @depth
          )
          SELECT 1 AS found FROM up WHERE id = @me AND depth = @depth`,
  member: `SELECT ${MEMBER}, u.depth - @depth AS generation FROM users u WHERE u.id = @target`,
} as const

// PostgreSQL implements neither ORDER BY nor LIMIT inside a recursive query, so the priority-queue walk
// above cannot be written for it: there the page comes from the plain walk down the subtree (one
// users_inviter step per member), sorted after. Same rows, same order; the cost is the team's size.
const PAGE_PG = `WITH RECURSIVE down(id, gen) AS (
           SELECT id, 1 FROM users WHERE inviter_id = @me
           UNION ALL
           SELECT u.id, down.gen + 1 FROM down JOIN users u ON u.inviter_id = down.id
         )
         SELECT ${MEMBER}, down.gen AS generation
           FROM down JOIN users u ON u.id = down.id
          ORDER BY down.gen, down.id
          LIMIT @size OFFSET @skip`

interface MeRow {
  id: bigint
  depth: bigint
  zhi_num: bigint
  team_num: bigint
  zhi_performance: bigint
  team_performance: bigint
  team_elite: bigint
  team_core: bigint
  team_genesis: bigint
}

interface MemberRow {
  id: bigint
  name: string
  wallet_address: string | null
  level: bigint
  zhi_num: bigint
  team_num: bigint
  me_performance: bigint
  team_performance: bigint
  created_at: bigint
  agent: bigint
  generation: bigint
}

type PageParams = [{ me: number; upTo: number; size: number; skip: number }]

const TEAM = statements({
  me: statement<MeRow, [{ me: number }]>(TEXT.me),
  page: statement<MemberRow, PageParams>(TEXT.page),
  pagePg: statement<MemberRow, PageParams>(PAGE_PG),
  below: statement<{ found: bigint }, [{ target: number; me: number; depth: bigint }]>(TEXT.below),
  member: statement<MemberRow, [{ target: number; depth: bigint }]>(TEXT.member),
})

const wire = (r: MemberRow): TeamMember => ({
  id: Number(r.id),
  name: r.name,
  wallet_address: r.wallet_address ? getAddress(r.wallet_address) : '',
  generation: Number(r.generation),
  level: Number(r.level),
  advanced_agent: r.agent === 1n,
  zhi_num: Number(r.zhi_num),
  team_num: Number(r.team_num),
  me_performance: formatMoney(r.me_performance),
  team_performance: formatMoney(r.team_performance),
  created_at: Number(r.created_at),
})

export type TeamService = ReturnType<typeof createTeamService>

/**
 * Refuses a page past the last (an empty list has page 1), naming how many there are: the paging rule
 * of every list of the caller's team (the whole team here, the direct referrals in user/zhiList).
 */
export function checkPage(page: number, pageSize: number, total: number): void {
  const pages = pageCount(total, pageSize)
  if (page > pages) throw badRequest('team.errors.pageOutOfRange', { pages })
}

export function createTeamService(ctx: Pick<Ctx, 'sql'>) {
  const { sql } = ctx
  const page = sql.dialect === 'postgres' ? TEAM.pagePg : TEAM.page

  async function me(userId: number): Promise<MeRow> {
    const row = await sql.get(TEAM.me, { me: userId })
    if (!row) throw notFound('errors.userNotFound')
    return row
  }

  return {
    async info(userId: number): Promise<TeamInfo> {
      const m = await me(userId)
      return {
        zhi_num: Number(m.zhi_num),
        team_num: Number(m.team_num),
        zhi_performance: formatMoney(m.zhi_performance),
        team_performance: formatMoney(m.team_performance),
        nodes: { elite: Number(m.team_elite), core: Number(m.team_core), genesis: Number(m.team_genesis) },
      }
    },

    async list(userId: number, pageNo: number, pageSize: number, search: string | undefined): Promise<PagedList<TeamMember>> {
      const q = parseTeamSearch(search)
      if (!q.ok) throw badRequest(q.error)
      const m = await me(userId)
      if (q.id !== null) {
        const found = q.id !== userId && (await sql.get(TEAM.below, { target: q.id, me: userId, depth: m.depth })) !== undefined
        const total = found ? 1 : 0
        checkPage(pageNo, pageSize, total)
        if (!found || pageNo > 1) return { total, list: [] }
        return { total, list: [wire((await sql.get(TEAM.member, { target: q.id, depth: m.depth }))!)] }
      }
      const total = Number(m.team_num)
      checkPage(pageNo, pageSize, total)
      const skip = (pageNo - 1) * pageSize
      // The walk to a page costs its depth in the list: bounded by TEAM_LIST_SHOWN (the search finds deeper members).
      if (pageNo > 1 && skip >= TEAM_LIST_SHOWN) throw badRequest('team.errors.pageTooDeep', { shown: TEAM_LIST_SHOWN })
      const size = Math.min(pageSize, TEAM_LIST_SHOWN - skip)
      const rows = await sql.all(page, { me: userId, upTo: skip + size, size, skip })
      return { total, list: rows.map(wire) }
    },
  }
}
