// Runs in every e2e file (vitest.config.ts): whatever the file did in Chromium, the app shell's
// Content-Security-Policy was never violated.
import { afterAll, expect } from 'vitest'
import { cspViolations } from './app.ts'

afterAll(() => {
  expect(cspViolations, 'Content-Security-Policy violations').toEqual([])
})
