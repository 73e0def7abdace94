/**
 * Relative links in the repository's markdown (README.md, docs/): which ones point at a file that
 * does not exist or at a heading that is not there. Pure: the caller reads the files.
 */

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The lines of a markdown text, those of fenced code blocks blanked (a `#` there is no heading). */
function outsideFences(markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line
  })
}

/** Every heading's anchor, a repeated heading numbered as GitHub numbers it (`-1`, `-2`, …). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const line of outsideFences(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const base = slug(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

export interface Link {
  line: number
  /** The path part, relative to the linking file's folder; '' for a link within the file. */
  path: string
  /** The anchor after '#', or null. */
  anchor: string | null
}

/** The relative links and images of a markdown text: not web addresses, not inside code. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = []
  outsideFences(markdown).forEach((line, i) => {
    // Brackets inside inline code are not links.
    const text = line.replace(/(`+)[^`]*?\1/g, '')
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      const hash = target.indexOf('#')
      links.push({
        line: i + 1,
        path: decodeURIComponent(hash === -1 ? target : target.slice(0, hash)),
        anchor: hash === -1 ? null : decodeURIComponent(target.slice(hash + 1)),
      })
    }
  })
  return links
}
