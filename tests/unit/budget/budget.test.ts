import { describe, expect, it } from 'vitest'
import { checkBudgets, chunkName, limitFor, type Budgets } from '../../../scripts/budget.mjs'
import { firstLoadPackages, packageOf, readmeProblems, readmeReasons, readmeTable, shareOut, withReadmeTable } from '../../../scripts/bundle-packages.mjs'

const KB = 1024
const budgets: Budgets = {
  firstLoad: { totalKB: 100, chunks: { index: 80, 'locale-*-core': 11, default: 5 } },
  lazy: { chunks: { CandleChart: 30, gone: 10, default: 20 } },
}

describe('chunkName', () => {
  it('drops the folder and the 8-character hash, even one that starts with a dash', () => {
    expect(chunkName('assets/index-n0aldof2.js')).toBe('index')
    expect(chunkName('/assets/locale-tw-core-CVovmhDZ.js')).toBe('locale-tw-core')
    expect(chunkName('assets/ActivityRankScreen--zhhO7Sy.js')).toBe('ActivityRankScreen')
    expect(chunkName('assets/index-6ae5acf7-CjtGqN81.js')).toBe('index-6ae5acf7')
  })
})

describe('limitFor', () => {
  it("takes a chunk's own row before a pattern, and a pattern before the default", () => {
    const table = { 'locale-*-core': 11, 'locale-tw-core': 9, default: 5 }
    expect(limitFor(table, 'locale-tw-core')).toEqual({ key: 'locale-tw-core', kb: 9 })
    expect(limitFor(table, 'locale-jp-core')).toEqual({ key: 'locale-*-core', kb: 11 })
    expect(limitFor(table, 'Sheet')).toEqual({ key: 'default', kb: 5 })
  })

  it('a pattern matches the whole name, its dots taken literally', () => {
    expect(limitFor({ 'a.b*': 1, default: 2 }, 'axb-c').key).toBe('default')
    expect(limitFor({ 'a.b*': 1, default: 2 }, 'a.b-c').key).toBe('a.b*')
  })

  it('a chunk no row holds, in a table without a default, is an error, not a pass', () => {
    expect(() => limitFor({ index: 1 }, 'other')).toThrow(/no budget for chunk "other"/)
  })
})

describe('checkBudgets', () => {
  const firstLoad = (gzip: number) => ({ gzip, parts: [{ file: '/assets/index-n0aldof2.js' }, { file: '/assets/Sheet-CTSYjmze.js' }] })

  it('passes when every chunk is within its limit and the first load within its total', () => {
    const r = checkBudgets(
      [
        { file: 'assets/index-n0aldof2.js', gzip: 80 * KB },
        { file: 'assets/Sheet-CTSYjmze.js', gzip: 5 * KB },
        { file: 'assets/CandleChart-CuvqZS77.js', gzip: 29 * KB },
      ],
      firstLoad(85 * KB),
      budgets,
    )
    expect(r.failures).toEqual([])
    expect(r.rows.map((x) => [x.name, x.kind, x.row])).toEqual([
      ['index', 'firstLoad', 'index'],
      ['Sheet', 'firstLoad', 'default'],
      ['CandleChart', 'lazy', 'CandleChart'],
    ])
  })

  it('fails when the first load grows past its total, though every chunk is within its own limit', () => {
    const r = checkBudgets([{ file: 'assets/index-n0aldof2.js', gzip: 80 * KB }], firstLoad(100 * KB + 1), budgets)
    expect(r.failures).toEqual(['the first load of /index is 100.0 KB gzip, over its budget of 100 KB'])
  })

  it('holds a first-load chunk to the first-load default, though a lazy chunk of its size would pass', () => {
    const r = checkBudgets(
      [
        { file: 'assets/Sheet-CTSYjmze.js', gzip: 6 * KB },
        { file: 'assets/Other-AAAAAAAA.js', gzip: 6 * KB },
      ],
      firstLoad(6 * KB),
      budgets,
    )
    expect(r.failures).toEqual(['assets/Sheet-CTSYjmze.js: 6.0 KB gzip, over its first-load chunk budget of 5 KB ("default")'])
  })

  it("counts every language's first part as first load, though only the default one is in /index's", () => {
    const r = checkBudgets([{ file: 'assets/locale-jp-core-jr8MSTCi.js', gzip: 12 * KB }], firstLoad(0), budgets)
    expect(r.rows[0]?.kind).toBe('firstLoad')
    expect(r.failures).toHaveLength(1)
  })

  it('names the rows that matched no chunk, without failing for them', () => {
    const r = checkBudgets([{ file: 'assets/CandleChart-CuvqZS77.js', gzip: KB }], firstLoad(0), budgets)
    expect(r.failures).toEqual([])
    expect(r.unused).toEqual(['firstLoad.index', 'firstLoad.locale-*-core', 'lazy.gone'])
  })
})

describe('packageOf', () => {
  const root = '/repo'
  it('names the innermost package of a node_modules path, with its scope', () => {
    expect(packageOf('/repo/node_modules/react-dom/cjs/react-dom-client.production.js', root)).toBe('react-dom')
    expect(packageOf('/repo/node_modules/@tanstack/query-core/build/modern/query.js', root)).toBe('@tanstack/query-core')
    expect(packageOf('/repo/node_modules/wouter/node_modules/regexparam/dist/index.mjs', root)).toBe('regexparam')
  })

  it("groups our own files by their top folder, a query string dropped, and virtual modules as the bundler's", () => {
    expect(packageOf('/repo/src/app/App.tsx', root)).toBe('(ours) src/')
    expect(packageOf('/repo/locales/tw.json?part=core', root)).toBe('(ours) locales/')
    expect(packageOf('\0vite/preload-helper.js', root)).toBe('(bundler runtime)')
  })
})

describe('shareOut', () => {
  it('shares a total in proportion to the weights, in whole bytes that add up to it exactly', () => {
    const out = shareOut(1000, { a: 1, b: 1, c: 1 })
    expect(Object.values(out).reduce((x, y) => x + y, 0)).toBe(1000)
    expect(Object.values(out).sort()).toEqual([333, 333, 334])
    expect(shareOut(100, { big: 3, small: 1 })).toEqual({ big: 75, small: 25 })
  })

  it('gives nothing to a package of no weight, and nothing at all when no package weighs anything', () => {
    expect(shareOut(10, { a: 0, b: 2 })).toEqual({ b: 10 })
    expect(shareOut(10, { a: 0 })).toEqual({})
  })
})

describe('firstLoadPackages', () => {
  it("adds each package's share of each first-load file, largest first", () => {
    const chunks = { 'assets/index-a.js': { react: 3, '(ours) src/': 1 }, 'assets/b-b.js': { react: 1, wouter: 1 } }
    expect(firstLoadPackages([{ file: '/assets/index-a.js', gzip: 400 }, { file: '/assets/b-b.js', gzip: 100 }], chunks)).toEqual([
      { name: 'react', gzip: 350 },
      { name: '(ours) src/', gzip: 100 },
      { name: 'wouter', gzip: 50 },
    ])
  })

  it('refuses a first-load file the build did not weigh (a stale dist/)', () => {
    expect(() => firstLoadPackages([{ file: '/assets/new-x.js', gzip: 1 }], {})).toThrow(/not in \.bundle-packages/)
  })
})

describe("the README's first-load table", () => {
  const readme = (rows: string) =>
    `# NADI\n\n<!-- first-load-packages:start (node scripts/first-load-packages.mjs --write) -->\n| package | KB gzip | why it is in the first load |\n|---|---:|---|\n${rows}| total | 1.0 | |\n<!-- first-load-packages:end -->\n\n## Map\n`
  const packages = [
    { name: 'react-dom', gzip: 60 * KB },
    { name: '(ours) src/', gzip: 20 * KB },
    { name: 'wouter', gzip: KB },
  ]

  it('is complete when every npm package of the first load has a row that says why', () => {
    const text = readme('| `react-dom` | 60.0 | renders |\n| `wouter` | 1.0 | routes |\n')
    expect(readmeProblems(packages, text)).toEqual([])
  })

  it('fails for a package with no row, a row with no reason, and a row of a package gone from the first load', () => {
    const text = readme('| `react-dom` | 60.0 |  |\n| `dexie` | 20.0 | storage |\n')
    expect(readmeProblems(packages, text)).toEqual([
      'react-dom: its README.md row does not say why it is in the first load',
      'wouter is in the first load but has no row in README.md',
      'dexie has a README.md row but is no longer in the first load',
    ])
  })

  it('is regenerated with new sizes, the reasons kept, and the rest of the README untouched', () => {
    const text = readme('| `react-dom` | 1.0 | renders |\n')
    const out = withReadmeTable(text, readmeTable(packages, text))
    expect(out.startsWith('# NADI\n\n')).toBe(true)
    expect(out.endsWith('<!-- first-load-packages:end -->\n\n## Map\n')).toBe(true)
    expect([...readmeReasons(out)]).toEqual([
      ['react-dom', 'renders'],
      ['(ours) src/', ''],
      ['wouter', ''],
    ])
    expect(out).toContain('| `react-dom` | 60.0 | renders |')
    expect(out).toContain('| total | 81.0 | |')
  })

  it('a README without the table is an error, not an empty table', () => {
    expect(() => readmeProblems(packages, '# NADI\n')).toThrow(/README.md has no first-load table/)
  })
})
