// A fill the user is told of once (issue 33): an order that fills after it was placed (a market order
// the engine matched a moment later, a resting order someone took) arrives on user@update_order,
// possibly before the placing call's answer and once per kept-alive screen listening. Pure but for
// the one set of orders already told, which lives as long as the page.

const told = new Set<number>()

/** Whether `order` has just filled and nobody told the user yet; answering true marks it told. */
export function fillToTell(order: { id: number; status: string }, seen: Set<number> = told): boolean {
  if (order.status !== 'filled' || seen.has(order.id)) return false
  seen.add(order.id)
  return true
}

/** The orders of a user@update_order push, of whatever shape it came in (malformed frames are ignored). */
export function pushedOrders(data: unknown): { id: number; status: string }[] {
  if (!Array.isArray(data)) return []
  return data.filter((o): o is { id: number; status: string } => typeof o === 'object' && o !== null && typeof (o as { id?: unknown }).id === 'number' && typeof (o as { status?: unknown }).status === 'string')
}
