import { describe, expect, it } from 'vitest'
import { BODY_DEPTH_MAX, bodyProblem } from '../../../server/http/body.ts'

const nested = (depth: number): unknown => {
  let v: unknown = 1
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v }
  return v
}

describe('bodyProblem: what is wrong with a parsed JSON body', () => {
  it('finds nothing in ordinary bodies', () => {
    for (const body of [{}, { amount: '1' }, [], { a: [{ b: null }] }, 'text', 3, null]) expect(bodyProblem(body)).toBeNull()
  })

  it('names a __proto__ or constructor key at any depth', () => {
    expect(bodyProblem(JSON.parse('{"__proto__":{"x":1}}'))).toEqual({ kind: 'forbiddenKey', key: '__proto__' })
    expect(bodyProblem(JSON.parse('{"a":[{"constructor":{"prototype":{}}}]}'))).toEqual({ kind: 'forbiddenKey', key: 'constructor' })
    expect(bodyProblem({ a: { b: { constructor: 'x' } } })).toEqual({ kind: 'forbiddenKey', key: 'constructor' })
  })

  it(`allows ${BODY_DEPTH_MAX} levels of objects and arrays and refuses one more`, () => {
    expect(bodyProblem(nested(BODY_DEPTH_MAX))).toBeNull()
    expect(bodyProblem(nested(BODY_DEPTH_MAX + 1))).toEqual({ kind: 'tooDeep' })
  })

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(bodyProblem(nested(100_000))).toEqual({ kind: 'tooDeep' })
  })
})
