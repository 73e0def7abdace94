// A list statement (server/db/query/list.ts): SQLite's VALUES text, and PostgreSQL's unnest form with
// its rows as one array literal per column, which must read back exactly the values sent.
import { describe, expect, it } from 'vitest'
import { arrayItem, listStatement } from '../../../server/db/query/list.ts'

describe('listStatement', () => {
  it('writes SQLite a VALUES list of the row count and PostgreSQL one unnest form for every count', () => {
    const two = listStatement('INSERT INTO t (a, b, c)', '(?, ?, 0)', ['bigint', 'text'], 2, ' RETURNING id')
    expect(two.text).toBe('INSERT INTO t (a, b, c) VALUES (?, ?, 0), (?, ?, 0) RETURNING id')
    expect(two.pg?.text).toBe('INSERT INTO t (a, b, c) SELECT nadi_list.c1 AS column1, nadi_list.c2 AS column2, 0 AS column3 FROM unnest(CAST(? AS bigint[]), CAST(? AS text[])) AS nadi_list(c1, c2) RETURNING id')
    const three = listStatement('INSERT INTO t (a, b, c)', '(?, ?, 0)', ['bigint', 'text'], 3, ' RETURNING id')
    expect(three.pg).toBe(two.pg)
  })

  it('keeps a row’s expressions whole: casts, calls with commas, quoted commas', () => {
    const s = listStatement('SELECT x FROM (', "(CAST(? AS BIGINT), coalesce(?, 'a,b'))", ['bigint', 'text'], 1, ') AS v')
    expect(s.pg?.text).toBe("SELECT x FROM ( SELECT CAST(nadi_list.c1 AS BIGINT) AS column1, coalesce(nadi_list.c2, 'a,b') AS column2 FROM unnest(CAST(? AS bigint[]), CAST(? AS text[])) AS nadi_list(c1, c2)) AS v")
  })

  it('turns the rows’ flat parameters into one array per column, row order kept', () => {
    const s = listStatement('INSERT INTO t (a, b)', '(?, ?)', ['bigint', 'text'], 3)
    expect(s.pg?.columns([1n, 'x', 2, null, null, 'z'])).toEqual(['{1,2,NULL}', '{"x",NULL,"z"}'])
    expect(() => s.pg?.columns([1n, 'x', 2])).toThrow(/not rows of 2/)
  })

  it('quotes text so that commas, braces, quotes, backslashes, blanks and the word NULL stay text', () => {
    for (const [v, lit] of [
      ['a,b', '"a,b"'],
      ['{x}', '"{x}"'],
      ['say "hi"', '"say \\"hi\\""'],
      ['C:\\dir', '"C:\\\\dir"'],
      ['', '""'],
      ['NULL', '"NULL"'],
      [' padded ', '" padded "'],
      ['名前', '"名前"'],
    ] as const) {
      expect(arrayItem(v, 'text')).toBe(lit)
    }
  })

  it('refuses what the driver refuses: a fraction or unsafe number, a string as a bigint, a number as text, an object', () => {
    expect(arrayItem(2n ** 63n - 1n, 'bigint')).toBe('9223372036854775807')
    expect(arrayItem(-5, 'bigint')).toBe('-5')
    for (const [v, t] of [
      [1.5, 'bigint'],
      [2 ** 60, 'bigint'],
      ['7', 'bigint'],
      [7, 'text'],
      [undefined, 'text'],
      [{}, 'bigint'],
    ] as const) {
      expect(() => arrayItem(v, t)).toThrow(TypeError)
    }
  })

  it('refuses a row that is not one tuple, parameters outside the rows, and types that do not match the row', () => {
    expect(() => listStatement('INSERT INTO t (a)', '?', ['bigint'], 1)).toThrow(/one parenthesized tuple/)
    expect(() => listStatement('INSERT INTO t (a)', '(?), (?)', ['bigint', 'bigint'], 1)).toThrow(/one parenthesized tuple/)
    expect(() => listStatement('UPDATE t SET a = ? FROM (', '(?)', ['bigint'], 1, ') AS v')).toThrow(/rows' only/)
    expect(() => listStatement('INSERT INTO t (a, b)', '(?, ?)', ['bigint'], 1)).toThrow(/2 parameters and 1 types/)
    expect(() => listStatement('INSERT INTO t (a)', '(?)', ['bigint'], 0)).toThrow(RangeError)
  })
})
