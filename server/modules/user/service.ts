import type { Ctx } from '../../context.ts'
import type { UserInfo, ZhiItem } from '../../../contract/user.ts'
import type { PagedList } from '../../../contract/envelope.ts'
import { formatMoney } from '../../../contract/money.ts'
import { getAddress } from 'ethers'
import { notFound } from '../../http/errors.ts'
import { sql } from 'kysely'
import { agentSql } from '../team/agent.ts'
import { checkPage } from '../team/service.ts'

// The advanced-agent right beside every name the user centre shows (issue 12 part 2).
const agent = sql<bigint>`${sql.raw(agentSql('users'))}`.as('agent')

export type UserService = ReturnType<typeof createUserService>

export function createUserService(ctx: Ctx) {
  const { db } = ctx
  return {
    async info(userId: number): Promise<UserInfo> {
      const u = await db.selectFrom('users').selectAll().select(agent).where('id', '=', BigInt(userId)).executeTakeFirst()
      if (!u) throw notFound('errors.userNotFound')
      return {
        id: Number(u.id),
        code: u.code,
        name: u.name,
        wallet_address: u.wallet_address ? getAddress(u.wallet_address) : '',
        zhi_num: Number(u.zhi_num),
        team_num: Number(u.team_num),
        me_performance: formatMoney(u.me_performance),
        zhi_performance: formatMoney(u.zhi_performance),
        team_performance: formatMoney(u.team_performance),
        level: Number(u.level),
        advanced_agent: u.agent === 1n,
        created_at: Number(u.created_at),
      }
    },

    async zhiList(userId: number, page: number, pageSize: number): Promise<PagedList<ZhiItem>> {
      const base = db.selectFrom('users').where('inviter_id', '=', BigInt(userId))
      const { n } = await base.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow()
      checkPage(page, pageSize, Number(n))
      const rows = await base
        .select(['id', 'name', 'wallet_address', 'team_num', 'me_performance', 'level', 'created_at'])
        .select(agent)
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute()
      return {
        total: Number(n),
        list: rows.map((r) => ({
          id: Number(r.id),
          name: r.name,
          wallet_address: r.wallet_address ? getAddress(r.wallet_address) : '',
          team_num: Number(r.team_num),
          me_performance: formatMoney(r.me_performance),
          level: Number(r.level),
          advanced_agent: r.agent === 1n,
          created_at: Number(r.created_at),
        })),
      }
    },
  }
}
