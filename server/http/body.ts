// JSON request bodies, read so that each refusal says what is wrong: not JSON, a key no body of ours
// has (__proto__, constructor), or nesting deeper than any body of ours. Fastify's own parser answers
// all three as "not valid JSON".

import { errorCodes } from 'fastify'
import { badRequest } from './errors.ts'
import type { App } from './types.ts'

/** Deeper than any of our bodies (the deepest, an application form, is two levels). */
export const BODY_DEPTH_MAX = 16

/**
 * Keys refused anywhere in a body. JSON.parse keeps `__proto__` as an own key, harmless until code
 * copies it into another object, where it becomes the prototype; `constructor.prototype` reaches a
 * class the same way. No body of ours uses either, so such a body is refused, never acted on in part.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor'])

export type BodyProblem = { kind: 'forbiddenKey'; key: string } | { kind: 'tooDeep' }

/** What is wrong with a parsed body, or null. Iterative, and stops at the first problem. */
export function bodyProblem(value: unknown): BodyProblem | null {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }]
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (depth >= BODY_DEPTH_MAX) return { kind: 'tooDeep' }
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key)) return { kind: 'forbiddenKey', key }
      stack.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1 })
    }
  }
  return null
}

/**
 * Replaces the default application/json parser; the empty and malformed cases keep Fastify's codes.
 * `exact` reads bodies of one exact spelling without JSON.parse (the envelope's, server/http/seal.ts):
 * it answers what JSON.parse would, already checked, or null to leave the text to JSON.parse.
 */
export function jsonBodies(app: App, exact?: (text: string) => object | null) {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string
    if (text.length === 0) return done(new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY(), undefined)
    const read = exact?.(text)
    if (read) return done(null, read)
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined)
    }
    const problem = bodyProblem(parsed)
    if (problem?.kind === 'forbiddenKey') return done(badRequest('errors.bodyForbiddenKey', { key: problem.key }), undefined)
    if (problem?.kind === 'tooDeep') return done(badRequest('errors.bodyTooDeep', { max: BODY_DEPTH_MAX }), undefined)
    done(null, parsed)
  })
}
