import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors, relativeLinks, slug } from '../../../scripts/docLinks.ts'

const root = path.resolve(import.meta.dirname, '../../..')

function markdownUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return markdownUnder(p)
    return e.name.endsWith('.md') ? [p] : []
  })
}

describe('heading anchors', () => {
  it('are the heading in lower case, punctuation dropped, spaces as hyphens', () => {
    expect(slug('One writer per data folder, and a market that halts')).toBe('one-writer-per-data-folder-and-a-market-that-halts')
    expect(slug('`npm test` needs')).toBe('npm-test-needs')
    expect(slug('Savings (pledge)')).toBe('savings-pledge')
    expect(slug('Time: UTC — always')).toBe('time-utc--always')
  })

  it('number a repeated heading, and ignore a # inside a code block', () => {
    expect([...anchors('# A\n## Setup\n```sh\n# not a heading\n```\n### Setup\n')]).toEqual(['a', 'setup', 'setup-1'])
  })
})

describe('relative links', () => {
  it('are found outside code, with their path and anchor; web addresses are not relative', () => {
    const md = 'See [ops](docs/operations.md#writer-lock) and ![shot](a%20b.png).\n`[not](x.md)`\n[web](https://x.example) [here](#top)\n```\n[no](y.md)\n```'
    expect(relativeLinks(md)).toEqual([
      { line: 1, path: 'docs/operations.md', anchor: 'writer-lock' },
      { line: 1, path: 'a b.png', anchor: null },
      { line: 3, path: '', anchor: 'top' },
    ])
  })
})

describe('README.md and docs/', () => {
  const files = [path.join(root, 'README.md'), ...markdownUnder(path.join(root, 'docs'))]

  it('link only to files that exist and to headings those files have', () => {
    const broken: string[] = []
    for (const file of files) {
      for (const link of relativeLinks(fs.readFileSync(file, 'utf8'))) {
        const where = `${path.relative(root, file)}:${link.line}`
        const target = link.path === '' ? file : path.resolve(path.dirname(file), link.path)
        if (!fs.existsSync(target)) {
          broken.push(`${where}: no file ${link.path}`)
          continue
        }
        if (link.anchor !== null && target.endsWith('.md') && !anchors(fs.readFileSync(target, 'utf8')).has(link.anchor)) {
          broken.push(`${where}: no heading #${link.anchor} in ${path.relative(root, target)}`)
        }
      }
    }
    expect(broken).toEqual([])
  })
})
