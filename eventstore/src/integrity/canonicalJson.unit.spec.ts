import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonicalJson.js';

/** No lone surrogate (pairs removed, no half is left). */
const wellFormed = (text: string) => !/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));

/** Values as event data holds them: any JSON, with members JSON leaves out (undefined) here and there. */
const eventLike = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(fc.string({ unit: 'binary' }).filter(wellFormed), fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 6 }),
    fc.array(tie('value'), { maxLength: 5 }),
  ),
})).value;

describe('canonical JSON', () => {
  it('writes exactly what the reference implementation of RFC 8785 writes, for any JSON value', () => {
    fc.assert(
      fc.property(eventLike, (value) => {
        // JSON.stringify writes a lone surrogate as an escape; canonical JSON refuses it (tested below).
        fc.pre(!/\\ud[89a-f][0-9a-f]{2}/i.test(JSON.stringify(value ?? null)));
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 5_000 },
    );
  });

  it('sorts keys by UTF-16 code units (not by length, as PostgreSQL’s jsonb keeps them)', () => {
    expect(canonicalJson({ bb: 1, a: 2, é: 3, Z: 4, '😀': 5, ﬀ: 6 })).toBe('{"Z":4,"a":2,"bb":1,"é":3,"😀":5,"ﬀ":6}');
  });

  it('escapes what JSON escapes in values and member names alike, the second time a name is met as the first', () => {
    const tricky = { 'say "hi"': 'C:\\temp\n\u0001', 'tab\t': '😀 \u2028', plain: 'juan dela cruz' };
    for (let round = 0; round < 2; round++) expect(canonicalJson(tricky)).toBe(canonicalize(tricky));
    expect(canonicalJson(tricky)).toBe('{"plain":"juan dela cruz","say \\"hi\\"":"C:\\\\temp\\n\\u0001","tab\\t":"😀 \u2028"}');
  });

  it('refuses what JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([Number.NEGATIVE_INFINITY])).toThrow(TypeError);
    expect(() => canonicalJson({ s: 'x\udc00' })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ ['k\ud800']: 1 })).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ n: 10n })).toThrow(/bigint/);
  });
});
