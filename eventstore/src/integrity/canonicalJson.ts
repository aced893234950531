/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units at every depth,
 * no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them (shortest
 * round-trip numbers; money in events is integer centavos, so nothing is lost). What JSON cannot
 * hold faithfully (NaN, ±Infinity, lone surrogates, bigint) is refused rather than silently stored
 * as something else; members whose value JSON leaves out (undefined, functions) are left out.
 *
 * Written here rather than taken from the `canonicalize` package, against which a property test
 * holds it (canonicalJson.unit.spec.ts): verification hashes every event of the log, and this is
 * about three times faster (lone surrogates checked natively, no cycle bookkeeping — event data
 * comes from JSON and has none).
 */
export function canonicalJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError('this value has no JSON form');
  return text;
}

/** Whether JSON leaves the member out of an object (and writes null for it in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      if (!(value as string & { isWellFormed(): boolean }).isWellFormed()) throw new TypeError('a string holds a lone surrogate, which JSON cannot carry faithfully');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no JSON form`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const withToJson = value as { toJSON?: () => unknown };
      if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          out += (i === 0 ? '' : ',') + (omitted(item) ? 'null' : write(item));
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const item = record[key];
        if (omitted(item)) continue;
        const written = write(item);
        if (written === undefined) continue;
        out += `${first ? '' : ','}${write(key)}:${written}`;
        first = false;
      }
      return `${out}}`;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      throw new TypeError(`a ${typeof value} has no JSON form`);
  }
}
