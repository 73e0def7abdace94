// A term of whole UTC days — a node's, a loan's, a pledge's (issue 17 §4). Pure, shared by the server,
// which settles one UTC day at a time, and the app, which shows the same dates. One rule for all:
// a term of D days taken on day T pays (or charges) for the D days after T, so it runs from T + 1 to
// its last day T + D, is due on that last day, and shows D days left on the day it is taken.

/** Days since 1970-01-01 (UTC) of a term's first day and of the day after its last (exclusive). */
export interface Term {
  startDay: number
  endDay: number
}

/** The term of `days` days taken on `today`: it starts tomorrow, the first day the settlement can pay. */
export function termOf(today: number, days: number): Term {
  const startDay = today + 1
  return { startDay, endDay: startDay + days }
}

/** The term's last day: the due date shown, and the settled day that ends it (releases, returns). */
export const lastDayOf = (term: Pick<Term, 'endDay'>): number => term.endDay - 1

/** Days of the term not yet over on `today`, today counted: all of them before it starts, 0 once it is over. */
export const daysLeft = (term: Term, today: number): number => Math.max(0, term.endDay - Math.max(today, term.startDay))
