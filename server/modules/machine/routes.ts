import type { App } from '../../http/types.ts'
import { shopRoutes, type ShopDeps } from '../goods/routes.ts'

/** The device shop (SPEC §7 machine/…; screens /shop): tablets, straight and foldable phones. */
export function machineRoutes(app: App, deps: ShopDeps): void {
  shopRoutes(app, 'machine', deps, { orders: true })
}
