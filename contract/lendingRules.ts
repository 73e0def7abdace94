// Loan terms (SPEC §1 lending plan; issue 11 part 6). Pure, shared by the server (which records the
// loan) and the borrow confirm (which shows the due date before anything is sent). Days are UTC days
// since 1970-01-01.

/** A loan taken on `today`: interest is added from tomorrow, and it is due `maxDays` days after that. */
export function loanTerm(today: number, maxDays: number): { startDay: number; dueDay: number } {
  const startDay = today + 1
  return { startDay, dueDay: startDay + maxDays }
}
