// Least privilege for operators (issue 35 item 1). Every operator route names the role it needs; the
// roles are not a ladder: support (content, shipping, car applications, notes, freeze) and finance
// (withdrawals, funding, airdrops, adjustments) are apart, neither may do the other's work, both read
// as a viewer does, and an admin may do everything.
import { OPERATOR_ROLES, type OperatorRole } from '../../../contract/operator.ts'

/** Who may make a call that needs `need`. */
const PERMITTED: Record<OperatorRole, readonly OperatorRole[]> = {
  viewer: ['viewer', 'support', 'finance', 'admin'],
  support: ['support', 'admin'],
  finance: ['finance', 'admin'],
  admin: ['admin'],
}

/** Whether an operator of `role` may make a call that needs `need`. */
export function permits(role: OperatorRole, need: OperatorRole): boolean {
  return PERMITTED[need].includes(role)
}

export function isRole(text: string): text is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(text)
}
