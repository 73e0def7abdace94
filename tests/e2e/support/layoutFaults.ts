// What a person sees go wrong on a narrow phone, found in the page (issue 17 §4): a control cut by its
// own box, by a scrolling or clipping ancestor or by the screen's edge; an ellipsis that hides a badge
// or a word of the app (not just the end of a user's text); a one-word label broken over two lines
// ("Refre / sh"); a figure (src/ui/Amount) broken inside or torn from its unit ("2,551.2263 / 16"); a box cut partway
// by a scrolling or clipping ancestor (a help box beside a row of wallets). Passed whole to
// page.evaluate, so it closes over nothing and declares no named functions.

export interface FaultScope {
  /** CSS selectors of the parts to check; hidden matches (screens kept alive) are skipped. */
  roots: string[]
  /** Look inside this element's open shadow root instead of the document (web3-onboard's modal). */
  shadowHost?: string
}

export const layoutFaults = (scope: FaultScope): string[] => {
  const doc: Document | ShadowRoot = scope.shadowHost ? document.querySelector(scope.shadowHost)?.shadowRoot ?? document : document
  const vw = document.documentElement.clientWidth
  const faults: string[] = []
  const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  const name = (el: Element) => `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')} "${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`
  // Lines some text takes: the boxes of its text (never of a field beside it) grouped by their middle.
  const lines = (ranges: Range[]) => {
    const mids: number[] = []
    for (const range of ranges) {
      for (const r of range.getClientRects()) {
        if (r.width < 0.5) continue
        const mid = r.top + r.height / 2
        if (!mids.some((m) => Math.abs(m - mid) < r.height / 2)) mids.push(mid)
      }
    }
    return mids.length
  }
  const textRanges = (el: Element) => {
    const out: Range[] = []
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent?.trim()) continue
      const range = document.createRange()
      range.selectNodeContents(n)
      out.push(range)
    }
    return out
  }
  // The horizontal span of an element that its clipping ancestors leave visible (the screen aside).
  const visibleSpan = (el: Element) => {
    const r = el.getBoundingClientRect()
    let left = r.left
    let right = r.right
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue
      const box = a.getBoundingClientRect()
      left = Math.max(left, box.left + a.clientLeft)
      right = Math.min(right, box.left + a.clientLeft + a.clientWidth)
    }
    return { r, left, right }
  }
  // Content an element cuts without a mark: any vertical cut, or a horizontal one with no ellipsis shown.
  const cutsSilently = (el: Element) => {
    const s = getComputedStyle(el)
    if (el.clientWidth <= 2 || el.clientHeight <= 2) return false
    // A field scrolls its own text; a line clamp ends with an ellipsis.
    if (el.matches('input, textarea, select') || (s.webkitLineClamp !== 'none' && s.webkitLineClamp !== '')) return false
    const vertical = s.overflowY !== 'visible' && s.overflowY !== 'auto' && s.overflowY !== 'scroll' && el.scrollHeight > el.clientHeight + 1
    const horizontal = s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !(s.textOverflow === 'ellipsis' && s.whiteSpace === 'nowrap')
    return vertical || horizontal
  }
  const roots = scope.roots.flatMap((sel) => [...doc.querySelectorAll(sel)]).filter(shown)
  const controls = new Set<Element>()
  for (const root of roots) {
    for (const el of root.querySelectorAll('button, a[href], [role="tab"], label, .chip, .btn, summary, select')) if (shown(el)) controls.add(el)
  }
  for (const el of controls) {
    const { r, left, right } = visibleSpan(el)
    const l = Math.max(left, 0)
    const rr = Math.min(right, vw)
    // Partly shown: a slide of a carousel out of view is whole elsewhere, a tab half under the edge is not.
    if (r.width > 1 && rr > l && (l > r.left + 1 || rr < r.right - 1)) faults.push(`clipped ${Math.round(r.right - rr + l - r.left)} px: ${name(el)}`)
    for (const part of [el, ...el.querySelectorAll('*')]) if (shown(part) && cutsSilently(part)) faults.push(`cuts its text: ${name(part)}`)
    // A word of the label (one text without a space) on more than one line is broken inside.
    // Chinese and Japanese break between any two characters, and a word wider than its control must break.
    for (const range of textRanges(el)) {
      const word = range.toString().trim()
      if (/\s|[\u3000-\u9fff\uff00-\uffef]/.test(word)) continue
      if ([...range.getClientRects()].reduce((w, r) => w + r.width, 0) > el.clientWidth) continue
      const n = lines([range])
      if (n > 1) faults.push(`word "${range.toString().trim()}" on ${n} lines: ${name(el)}`)
    }
  }
  const beyond = new Set<Element>()
  for (const root of roots) {
    for (const el of root.querySelectorAll('*')) {
      if (!shown(el)) continue
      // Past the screen's edge (and not cut back by an ancestor): only the outermost such element is named.
      const { r, left, right } = visibleSpan(el)
      if (r.width > 0 && (right > vw + 0.5 || left < -0.5)) {
        beyond.add(el)
        if (!(el.parentElement && beyond.has(el.parentElement))) faults.push(`beyond the screen's edge by ${Math.round(Math.max(right - vw, -left))} px: ${name(el)}`)
      }
      // A box (with a border or a background) that an ancestor cuts partway shows its cut edge.
      const st = getComputedStyle(el)
      const boxed = parseFloat(st.borderRightWidth) > 0 || parseFloat(st.borderLeftWidth) > 0 || !/rgba\(0, 0, 0, 0\)|transparent/.test(st.backgroundColor)
      if (boxed && r.width > 1 && right > left && (left > r.left + 1 || right < r.right - 1)) faults.push(`box cut ${Math.round(r.right - right + left - r.left)} px: ${name(el)}`)
      // An ellipsis may shorten a user's text, never hide a badge or a label beside it.
      if (getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
        const box = el.getBoundingClientRect()
        for (const child of el.querySelectorAll('*')) {
          const c = child.getBoundingClientRect()
          if (c.width > 0 && c.right > box.right + 1) faults.push(`ellipsis hides ${name(child)} in ${name(el)}`)
        }
      }
      // A figure drawn by src/ui/Amount (.amount) stays whole and on one line with its unit.
      if (el.classList.contains('amount') && lines(textRanges(el)) > 1) faults.push(`figure broken over lines: ${name(el)}`)
    }
  }
  return [...new Set(faults)]
}
