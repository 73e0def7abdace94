// Advanced-agent rights (SPEC §1 node grants; issue 12 part 2): held by a user who bought a node
// whose tier carries the flag (node_orders.advanced_agent, copied from the tier when bought), once
// paid, and kept after the stake comes back, as the level is (node/service.ts). One SQL expression, so
// every place that shows a name with its badge reads the right the same way.

/** 1 when the user row under `alias` holds advanced-agent rights, else 0 (node_orders_user serves it). */
export const agentSql = (alias: string): string =>
  `EXISTS (SELECT 1 FROM node_orders n WHERE n.user_id = ${alias}.id AND n.advanced_agent = 1 AND n.status IN ('active', 'returned'))`
