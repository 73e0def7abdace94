// The operator's car application commands (server/cli.ts lists them): an application is taken up
// (reviewing), then approved or rejected with the reason the applicant reads.
import { CAR_APPLY_STATUSES, OPEN_STATUSES } from '../../../contract/carApplyRules.ts'
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { json, onlyFlags, statusFlag, unlessRefused, UsageError } from '../../commands/args.ts'
import { applicationsIn, approveApplication, CarApplyRefused, rejectApplication, reviewApplication, type CarApplicationRow } from './apply.ts'

export const CAR_COMMANDS: Command[] = [
  {
    words: ['car', 'list'],
    args: '[--status <s>|open|all] [--json]',
    summary: 'list car applications, by default the open ones (submitted, reviewing), with the applicant and their documents',
    async run(args, env) {
      const rest = [...args]
      const statuses = statusFlag('car list', rest, CAR_APPLY_STATUSES, OPEN_STATUSES)
      const asJson = rest.includes('--json')
      onlyFlags('car list', rest, ['--json'])
      const rows = await applicationsIn(env.database(), statuses)
      if (asJson) {
        env.io.out(json(rows))
        return 0
      }
      if (rows.length === 0) {
        env.io.out(`no car applications (${statuses.join(', ')})`)
        return 0
      }
      for (const r of rows) env.io.out(carApplicationLine(r))
      return 0
    },
  },
  {
    words: ['car', 'review'],
    args: '<id>',
    writes: true,
    needs: 'database',
    summary: 'take up a submitted car application: the applicant sees it under review',
    run: (args, env) => moveCarApplication('review', args, env),
  },
  {
    words: ['car', 'approve'],
    args: '<id>',
    writes: true,
    needs: 'database',
    summary: 'approve a submitted or reviewing car application',
    run: (args, env) => moveCarApplication('approve', args, env),
  },
  {
    words: ['car', 'reject'],
    args: '<id> <reason…>',
    writes: true,
    needs: 'database',
    summary: 'reject a submitted or reviewing car application, with the reason the applicant reads',
    run: (args, env) => moveCarApplication('reject', args, env),
  },
]

function carApplicationLine(r: CarApplicationRow): string {
  const name = (() => {
    try {
      const t = JSON.parse(r.goods_name) as Record<string, string>
      return t.EN ?? t.TW ?? Object.values(t)[0] ?? ''
    } catch {
      return ''
    }
  })()
  const docs = [`id front ${r.id_front}`, ...(r.id_back ? [`id back ${r.id_back}`] : []), `licence ${r.driver_licence}`]
  const parts = [`#${r.id}`, r.status, `user ${r.user_id}`, `car ${r.goods_id} "${name}"`, r.name, r.phone, `ID ${r.id_number}`, r.city, new Date(Number(r.created_at)).toISOString()]
  if (r.remark) parts.push(`remark: ${r.remark}`)
  if (r.reason) parts.push(`reason: ${r.reason}`)
  return `${parts.join('  ')}\n    ${docs.join('  ')}`
}

async function moveCarApplication(step: 'review' | 'approve' | 'reject', args: string[], env: CommandEnv): Promise<number> {
  const usage = step === 'reject' ? 'usage: car reject <id> <reason…>' : `usage: car ${step} <id>`
  if (step === 'reject' ? args.length < 2 : args.length !== 1) throw new UsageError(usage)
  if (!/^[1-9][0-9]{0,15}$/.test(args[0]!)) throw new UsageError(`not a car application id: ${args[0]}`)
  const id = Number(args[0])
  const conn = env.database()
  return unlessRefused(env, `car ${step}`, [CarApplyRefused], async () => {
    const row =
      step === 'review'
        ? await reviewApplication(conn, id)
        : step === 'approve'
          ? await approveApplication(conn, id)
          : await rejectApplication(conn, id, args.slice(1).join(' '))
    env.io.out(`car application #${row.id} ${row.status}${row.reason ? `: ${row.reason}` : ''}`)
    return 0
  })
}
