import { envInt, type Env } from '../../settings.ts'

/** Devices (issue 11 part 2): an activated device mines from the next UTC day. */
export interface DeviceSettings {
  /** NADI_DEVICE_RATE_PPM (10,000): NADI per unit of power per day, in millionths (300 power → 3 NADI a day). */
  ratePpm: number
}

export function readDeviceSettings(env: Env): DeviceSettings {
  return { ratePpm: envInt(env, 'NADI_DEVICE_RATE_PPM', 10_000, 0, 1_000_000) }
}
