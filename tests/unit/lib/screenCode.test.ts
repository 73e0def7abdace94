import { describe, expect, it } from 'vitest'
import { isCodeLoadFailure, mayFetchAhead } from '../../../src/lib/screenCode.ts'

describe('fetching the screens’ code ahead', () => {
  it('runs online when the browser says nothing of the link, or that data is not being saved', () => {
    expect(mayFetchAhead(true, undefined)).toBe(true)
    expect(mayFetchAhead(true, {})).toBe(true)
    expect(mayFetchAhead(true, { saveData: false, effectiveType: '3g' })).toBe(true)
  })

  it('does not run with Save-Data on, nor offline', () => {
    expect(mayFetchAhead(true, { saveData: true })).toBe(false)
    expect(mayFetchAhead(true, { saveData: true, effectiveType: '4g' })).toBe(false)
    expect(mayFetchAhead(false, undefined)).toBe(false)
    expect(mayFetchAhead(false, { saveData: false })).toBe(false)
  })
})

describe('a screen’s code that could not be fetched', () => {
  it('is told apart from a screen that failed, in the words of Chromium, Safari, Firefox and Vite', () => {
    expect(isCodeLoadFailure(new TypeError('Failed to fetch dynamically imported module: http://x/assets/A-1.js'))).toBe(true)
    expect(isCodeLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isCodeLoadFailure(new TypeError('error loading dynamically imported module: http://x/assets/A-1.js'))).toBe(true)
    expect(isCodeLoadFailure(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true)
    expect(isCodeLoadFailure(new TypeError("Cannot read properties of undefined (reading 'list')"))).toBe(false)
    expect(isCodeLoadFailure(null)).toBe(false)
    expect(isCodeLoadFailure({ message: 'Failed to fetch dynamically imported module' })).toBe(false)
  })
})
