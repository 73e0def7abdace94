/** A shelf of gold/group ("hot", "new", "category:3") → the category it shows, or null. Pure. */
export function categoryOfShelf(key: string): number | null {
  const m = /^category:([1-9][0-9]*)$/.exec(key)
  return m ? Number(m[1]) : null
}
