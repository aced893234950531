import fc from 'fast-check';

/** JSON text placed as is where a value goes: numbers JSON.stringify cannot write (1e309), very deep nesting. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, with each RawJson written as its own text. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return item;
  });
  if (text === undefined) return '';
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, index: string) => raws[Number(index)]);
}

/** One request of a fuzz run. The path's real ids are used unless `params` replaces them. */
export interface FuzzRequest {
  /** 'valid' or the name of the mutation, for the report. */
  mutation: string;
  params?: Record<string, string>;
  /** The query string without '?'. */
  query: string;
  /** No header at all when undefined. */
  contentType?: string;
  body?: string;
  idempotencyKey?: string;
}

const deep = (depth: number, kind: 'array' | 'object') => new RawJson(kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** A value where a field's value goes, of the kinds that break parsers and validators. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0.01,
    0.1 + 0.2,
    1e21,
    -1e21,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_VALUE,
    Number.MAX_VALUE,
    '',
    ' ',
    '0',
    '-1',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '0x10',
    '١٢٣٤',
    '1,000',
    '₱1000',
    'null',
    'true',
    'undefined',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202eevil',
    '\ufeffbom',
    '😀',
    'e\u0301',
    '\t\n\r',
    '<script>alert(1)</script>',
    "'; DROP TABLE events; --",
    '../../../etc/passwd',
    '%00',
    '${7*7}',
    '{{7*7}}',
    [],
    {},
    [1, 2, 3],
    { $gt: '' },
    { toString: 'x' },
    ['09171234567'],
  ),
  fc.constantFrom('1e309', '-1e309', '1e-400', '123456789012345678901234567890', '-0', '1E2', '0.1e1').map((text) => new RawJson(text)),
  fc.double(),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.tuple(fc.constantFrom('x', 'ü', '😀', '\u0000', '\u202e'), fc.integer({ min: 1_000, max: 20_000 })).map(([unit, times]) => unit.repeat(times)),
  fc.tuple(fc.integer({ min: 100, max: 40_000 }), fc.constantFrom<'array' | 'object'>('array', 'object')).map(([depth, kind]) => deep(depth, kind)),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Names a client might add hoping the server applies them (mass assignment) or a parser trips on. */
const extraKey = fc.oneof(
  fc.constantFrom('balance', 'status', 'role', 'creditScore', 'isAdmin', 'id', 'memberId', 'passwordHash', 'otp', 'version', '__proto__', 'constructor', 'prototype', ''),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const withKeyChanged = (body: unknown, pick: number, change: (record: Record<string, unknown>, key: string) => void): unknown => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = { ...(body as Record<string, unknown>) };
  const keys = Object.keys(record);
  if (keys.length > 0) change(record, keys[pick % keys.length]);
  return record;
};

/** Content types the API does not read as JSON, and JSON ones written unusually. */
const contentTypes = fc.constantFrom<string | undefined>(
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/xml',
  'application/octet-stream',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'application/csp-report',
  'application/jsonx',
  'json',
);

/** Ways JSON text goes wrong on the wire. */
const malformations: ((text: string, at: number) => string)[] = [
  (text, at) => text.slice(0, Math.max(1, at % Math.max(1, text.length))),
  (text) => `${text}}`,
  (text) => `${text},`,
  (text) => text.replace(/"/g, "'"),
  (text) => text.replace(/}$/, ',"amount":NaN}'),
  (text) => text.replace(/}$/, ',"x":undefined}'),
  (text) => `// comment\n${text}`,
  (text) => text.replace(/}$/, ',}'),
  () => '{',
  () => '{"a":1}{"b":2}',
  () => '"just a string"',
  () => '12345',
  () => 'null',
  () => 'true',
  () => ' \n\t',
  () => '\u0000',
  () => '{"a":"\\ud800"}',
  () => '{"a":"\\u0000"}',
  () => '{"a":"\\x41"}',
];

/** A body and query of the route's own shape, sent as JSON: what a well-behaved client sends. */
export function validRequest(body: fc.Arbitrary<unknown> | null, query: fc.Arbitrary<string>, idempotent: boolean): fc.Arbitrary<FuzzRequest> {
  return fc.record({ body: body ?? fc.constant(undefined), query, key: idempotent ? fc.option(fc.uuid(), { nil: undefined }) : fc.constant(undefined) }).map(({ body: value, query: q, key }) => ({
    mutation: 'valid',
    query: q,
    ...(value === undefined ? {} : { contentType: 'application/json', body: jsonText(value) }),
    ...(key ? { idempotencyKey: key } : {}),
  }));
}

/** A well-formed body broken one way: a field missing, of the wrong kind, huge, extra fields, or not an object at all. */
function mutatedBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ mutation: string; value: unknown }> {
  return fc.oneof(
    fc.tuple(valid, fc.nat()).map(([body, pick]) => ({ mutation: 'missing field', value: withKeyChanged(body, pick, (record, key) => delete record[key]) })),
    fc.tuple(valid, fc.nat(), hostileValue).map(([body, pick, value]) => ({ mutation: 'wrong value', value: withKeyChanged(body, pick, (record, key) => (record[key] = value)) })),
    fc.tuple(valid, fc.array(fc.tuple(extraKey, hostileValue), { minLength: 1, maxLength: 3 })).map(([body, extras]) => {
      const record: Record<string, unknown> = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
      // defineProperty, so '__proto__' becomes a real key of the JSON text rather than a prototype.
      for (const [key, value] of extras) Object.defineProperty(record, key, { value, enumerable: true, configurable: true, writable: true });
      return { mutation: 'extra fields', value: record };
    }),
    hostileValue.map((value) => ({ mutation: 'not an object', value })),
  );
}

/** Hostile query strings: repeated keys, broken escapes, huge and signed numbers, unknown keys. */
function mutatedQuery(valid: fc.Arbitrary<string>, keys: readonly string[]): fc.Arbitrary<string> {
  const key = keys.length ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 });
  const value = fc.oneof(
    fc.constantFrom('', '-1', '0', '1e3', '1.5', 'NaN', 'Infinity', '99999999999999999999', '0x10', ' 7', 'all', 'ALL', '%', '%E0%A4%A', '%00', '\u0000', '😀', 'a'.repeat(5000)),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  );
  return fc.oneof(
    fc.tuple(valid, key, value).map(([q, k, v]) => [q, new URLSearchParams([[k, v]]).toString()].filter(Boolean).join('&')),
    fc.tuple(valid, key).map(([q, k]) => [q, `${encodeURIComponent(k)}=1&${encodeURIComponent(k)}=2`].filter(Boolean).join('&')),
    fc.constantFrom('%', '%E0%A4%A', '&&&', '=', '==', 'a[b]=1', 'a[]=1&a[]=2', '__proto__=1', 'constructor[prototype][x]=1', 'page=1&page=1', 'x=1&'.repeat(1500)),
  );
}

/** Path parameters that cannot name anything: not ids, traversal, unicode, huge, and ids of nothing. */
export const hostilePathParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('not-a-uuid', '0', '-1', '1e3', 'null', 'undefined', '../../etc/passwd', '%', '%2e%2e', '{{id}}', ' ', '\u0000', '😀', 'a'.repeat(3000), '00000000-0000-0000-0000-000000000000', 'admin', 'me'),
  fc.uuid({ version: 4 }),
  fc.uuid({ version: 4 }).map((id) => id.toUpperCase().replace(/-/g, '')),
  // Only dots would be a dot segment the URL itself resolves (/users/.. is /api/admin), not a parameter.
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((value) => !/^\.+$/.test(value)),
);

export interface MutationInputs {
  /** The route's valid body, or null when it takes none (GET, DELETE, multipart). */
  body: fc.Arbitrary<unknown> | null;
  /** Whether the method carries a body at all (POST, PUT, PATCH). */
  bodyMethod: boolean;
  query: fc.Arbitrary<string>;
  queryKeys: readonly string[];
  paramNames: readonly string[];
  idempotent: boolean;
}

/** A request broken in one way (or a few), by the families the issue names. */
export function mutatedRequest(inputs: MutationInputs): fc.Arbitrary<FuzzRequest> {
  const validBody = inputs.body ?? fc.constant({});
  const key = inputs.idempotent ? fc.option(fc.uuid(), { nil: undefined }) : fc.constant(undefined);
  const families: fc.Arbitrary<FuzzRequest>[] = [
    fc.tuple(mutatedQuery(inputs.query, inputs.queryKeys), validBody).map(([query, body]) => ({
      mutation: 'query',
      query,
      ...(inputs.bodyMethod && inputs.body ? { contentType: 'application/json', body: jsonText(body) } : {}),
    })),
  ];
  if (inputs.bodyMethod) {
    families.push(
      fc.tuple(mutatedBody(validBody), inputs.query, key).map(([{ mutation, value }, query, idempotencyKey]) => ({ mutation, query, contentType: 'application/json', body: jsonText(value), idempotencyKey })),
      fc.tuple(validBody, fc.nat(), fc.integer({ min: 0, max: malformations.length - 1 }), inputs.query).map(([body, at, which, query]) => ({
        mutation: 'malformed JSON',
        query,
        contentType: 'application/json',
        body: malformations[which](jsonText(body), at),
      })),
      fc.tuple(validBody, contentTypes, inputs.query).map(([body, contentType, query]) => ({ mutation: `content type ${contentType ?? 'none'}`, query, contentType, body: jsonText(body) })),
      fc.tuple(validBody, fc.integer({ min: 102_401, max: 300_000 }), inputs.query, key).map(([body, size, query, idempotencyKey]) => ({
        mutation: 'oversized body',
        query,
        contentType: 'application/json',
        body: jsonText({ ...(typeof body === 'object' && body !== null ? body : {}), padding: 'x'.repeat(size) }),
        idempotencyKey,
      })),
    );
  }
  if (inputs.paramNames.length) {
    families.push(
      fc.tuple(fc.constantFrom(...inputs.paramNames), hostilePathParam, inputs.query, validBody).map(([name, value, query, body]) => ({
        mutation: `path :${name}`,
        params: { [name]: value },
        query,
        ...(inputs.bodyMethod && inputs.body ? { contentType: 'application/json', body: jsonText(body) } : {}),
      })),
    );
  }
  return fc.oneof(...families).map((request) => (request.idempotencyKey === undefined ? withoutKey(request) : request));
}

const withoutKey = (request: FuzzRequest): FuzzRequest => {
  const { idempotencyKey: _unused, ...rest } = request;
  return rest;
};
