// The operator's content commands (issue 33), listed in server/cli.ts; what they write is what the
// app's lists show (GET notice/list, notice/detail, common/bannerList), published and due only:
//
//   notice load <file.json>          add or update notices by key (./contentFile.ts); a bad file writes nothing
//   notice publish <key> [--at <ISO>]  publish now, or at a moment (a future one schedules it)
//   notice unpublish <key>           hide it at once
//   notice list [--json]             every notice: key, status, moment, pin, English title
//   banner load <file.json>          add or update home banners by key
//   banner list [--json]             every home banner: key, status, order, image, link, English title
//   banner remove <key>              delete a home banner
import type { Command, CommandEnv } from '../../commands/registry.ts'
import { json, readJsonFile, UsageError, unlessRefused } from '../../commands/args.ts'
import { parseInstant } from '../../commands/fileSchemas.ts'
import { statement, statements, type Tx } from '../../db/query/types.ts'
import type { StoredState } from '../../db/schema.ts'
import { checkBannerFile, checkNoticeFile, ContentFileInvalid, loadBanners, loadNotices, publishKeyed, removeBanner, unpublishKeyed } from './contentFile.ts'
import { ContentRefused, statusAt } from './rules.ts'

const iso = (ms: bigint | number) => new Date(Number(ms)).toISOString().replace('.000Z', 'Z')
const REFUSALS = [ContentFileInvalid, ContentRefused, SyntaxError]

/** One command's writes, all or nothing: a refusal anywhere (a bad entry, an unknown key) writes nothing. */
const inTransaction = <T>(env: CommandEnv, fn: (tx: Tx) => Promise<T>) => env.database().sql.transaction(fn)

function oneKey(name: string, args: readonly string[]): string {
  if (args.length !== 1 || args[0]!.startsWith('--')) throw new UsageError(`usage: ${name} <key>`)
  return args[0]!
}

interface ListedRow {
  id: bigint
  key: string | null
  state: StoredState
  published_at: bigint
  title: string | null
}

// The operator's lists: everything, drafts and hidden rows included, with the English title.
const LISTED = statements({
  notices: statement<ListedRow & { pinned: bigint }, []>(
    `SELECT n.id, n.key, n.state, n.published_at, n.pinned, t.title FROM notices n LEFT JOIN notice_texts t ON t.notice_id = n.id AND t.lang = 'en'
     ORDER BY n.pinned DESC, n.published_at DESC, n.id DESC`,
  ),
  banners: statement<ListedRow & { sort: bigint; image: string; link: string | null }, []>(
    `SELECT b.id, b.key, b.state, b.published_at, b.sort, b.image, b.link, t.title FROM banners b LEFT JOIN banner_texts t ON t.banner_id = b.id AND t.lang = 'en'
     WHERE b.place = 'home' ORDER BY b.sort, b.id`,
  ),
})

/** Rows as the operator reads them: the derived status, and "-" for a row loaded before keys. */
function listed(r: ListedRow, now: number) {
  return { id: Number(r.id), key: r.key, status: statusAt({ state: r.state, publishedAt: Number(r.published_at) }, now), published_at: iso(r.published_at), title: r.title ?? '' }
}

function printList(env: CommandEnv, args: readonly string[], name: string, rows: object[], line: (r: never) => string): number {
  if (args.some((a) => a !== '--json')) throw new UsageError(`usage: ${name} [--json]`)
  if (args.includes('--json')) env.io.out(json(rows))
  else if (rows.length === 0) env.io.out(`no ${name.split(' ')[0]}s`)
  else for (const r of rows) env.io.out(line(r as never))
  return 0
}

function loadCommand(kind: 'notice' | 'banner', summary: string): Command {
  return {
    words: [kind, 'load'],
    args: '<file.json>',
    writes: true,
    needs: 'database',
    summary,
    async run(args, env) {
      if (args.length !== 1) throw new UsageError(`usage: ${kind} load <file.json>`)
      return unlessRefused(env, `${kind} load`, REFUSALS, async () => {
        const now = Date.now()
        const file = readJsonFile(args[0]!)
        const sum =
          kind === 'notice'
            ? await inTransaction(env, (tx) => loadNotices(tx, checkNoticeFile(file, now), now))
            : await inTransaction(env, (tx) => loadBanners(tx, checkBannerFile(file, now), now))
        env.io.out(`${kind}s loaded: ${sum.added} added, ${sum.updated} updated`)
        return 0
      })
    },
  }
}

export const NOTICE_COMMANDS: Command[] = [
  loadCommand('notice', 'add or update notices from a file in the ten languages (keys are kept; a bad file writes nothing)'),
  {
    words: ['notice', 'publish'],
    args: '<key> [--at <ISO time>]',
    writes: true,
    needs: 'database',
    summary: 'publish a notice now, or at a moment (a future one schedules it)',
    async run(args, env) {
      const rest = [...args]
      let at: number | undefined
      const flag = rest.indexOf('--at')
      if (flag >= 0) {
        const text = rest[flag + 1] ?? ''
        const ms = parseInstant(text)
        if (ms === null) throw new UsageError(`notice publish: --at takes an ISO time with its offset, e.g. 2026-05-01T08:00:00+08:00 (got ${JSON.stringify(text)})`)
        at = ms
        rest.splice(flag, 2)
      }
      const key = oneKey('notice publish [--at <ISO time>]', rest)
      return unlessRefused(env, 'notice publish', REFUSALS, async () => {
        const now = Date.now()
        const p = await inTransaction(env, (tx) => publishKeyed(tx, 'notices', key, now, at))
        env.io.out(`notice ${key}: ${statusAt(p, now)} from ${iso(p.publishedAt)}`)
        return 0
      })
    },
  },
  {
    words: ['notice', 'unpublish'],
    args: '<key>',
    writes: true,
    needs: 'database',
    summary: 'hide a published or scheduled notice at once (apps that cached the list may show it until their copy expires)',
    async run(args, env) {
      const key = oneKey('notice unpublish', args)
      return unlessRefused(env, 'notice unpublish', REFUSALS, async () => {
        await inTransaction(env, (tx) => unpublishKeyed(tx, 'notices', key, Date.now()))
        env.io.out(`notice ${key}: unpublished`)
        return 0
      })
    },
  },
  {
    words: ['notice', 'list'],
    args: '[--json]',
    summary: 'every notice, pinned first then newest: key, status, moment, pin and English title',
    async run(args, env) {
      const now = Date.now()
      const rows = await env.database().sql.all(LISTED.notices)
      const list = rows.map((r) => ({ ...listed(r, now), pinned: r.pinned === 1n }))
      return printList(env, args, 'notice list', list, (r: (typeof list)[number]) => `#${r.id} ${r.key ?? '-'} [${r.status}]${r.pinned ? ' pinned' : ''} ${r.published_at}  ${r.title}`)
    },
  },
]

export const BANNER_COMMANDS: Command[] = [
  loadCommand('banner', 'add or update home banners from a file in the ten languages (keys are kept; a bad file writes nothing)'),
  {
    words: ['banner', 'list'],
    args: '[--json]',
    summary: 'every home banner in the order shown: key, status, order, image, link and English title',
    async run(args, env) {
      const now = Date.now()
      const rows = await env.database().sql.all(LISTED.banners)
      const list = rows.map((r) => ({ ...listed(r, now), sort: Number(r.sort), image: r.image, link: r.link }))
      return printList(env, args, 'banner list', list, (r: (typeof list)[number]) => `#${r.id} ${r.key ?? '-'} [${r.status}] sort ${r.sort} ${r.image} → ${r.link ?? '(no link)'}  ${r.title}`)
    },
  },
  {
    words: ['banner', 'remove'],
    args: '<key>',
    writes: true,
    needs: 'database',
    summary: 'delete a home banner (apps that cached the list may show it until their copy expires)',
    async run(args, env) {
      const key = oneKey('banner remove', args)
      return unlessRefused(env, 'banner remove', REFUSALS, async () => {
        await inTransaction(env, (tx) => removeBanner(tx, key))
        env.io.out(`banner ${key}: removed`)
        return 0
      })
    },
  },
]
