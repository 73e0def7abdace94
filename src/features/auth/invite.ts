import { signal } from '@preact/signals-react'
import { INVITE_CODE_PATTERN } from '../../../contract/constants.ts'
import { storage } from '../../lib/storage.ts'

const RE = new RegExp(INVITE_CODE_PATTERN)
const KEY = 'invite_code'

export function normalizeInviteCode(raw: string): string {
  return raw.trim().toUpperCase()
}

export function isValidInviteCode(code: string): boolean {
  return RE.test(code)
}

/** The invite code the user arrived with (an invite link), kept until they register. */
export const pendingInvite = signal<string>(storage.get(KEY) ?? '')
/** Whether the sign-in sheet is open. */
export const signInOpen = signal(false)

/** Reads ?code= from an invite link; a valid code fills the sign-in form and opens it. */
export function captureInviteCode(search: string): void {
  const raw = new URLSearchParams(search).get('code')
  if (!raw) return
  const code = normalizeInviteCode(raw)
  if (!isValidInviteCode(code)) return
  pendingInvite.value = code
  storage.set(KEY, code)
  signInOpen.value = true
}

export function forgetInviteCode(): void {
  pendingInvite.value = ''
  storage.remove(KEY)
}
