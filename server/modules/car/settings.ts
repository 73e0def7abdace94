import { envInt, type Env } from '../../settings.ts'

/** Car applications (server/modules/car/apply.ts). */
export interface CarApplySettings {
  /** NADI_CAR_APPLY_MAX_OPEN (3): applications one user may have waiting (submitted or reviewing) at once. */
  maxOpen: number
}

export function readCarApplySettings(env: Env): CarApplySettings {
  return { maxOpen: envInt(env, 'NADI_CAR_APPLY_MAX_OPEN', 3, 1, 100) }
}
