import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Arbitraries for fields whose validity lies in a transform or refinement the schema's structure
 * does not show (a phone number that must normalise, an amount on a ₱10,000 step, an id that must
 * exist): by field name, wherever the field sits.
 */
export type FieldArbitraries = Record<string, fc.Arbitrary<unknown>>;

interface ZodInternals {
  _zod: { def: ZodDef; optin?: 'optional' };
}

interface ZodDef {
  type: string;
  checks?: ZodInternals[];
  format?: string;
  pattern?: RegExp;
  check?: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  shape?: Record<string, ZodInternals>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  options?: ZodInternals[];
  innerType?: ZodInternals;
  in?: ZodInternals;
  out?: ZodInternals;
  left?: ZodInternals;
  right?: ZodInternals;
  element?: ZodInternals;
  valueType?: ZodInternals;
}

const defOf = (schema: unknown): ZodDef => (schema as ZodInternals)._zod.def;

/** Text of any kind a person might type, within the given lengths (emoji, accents, RTL, CJK included). */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const max = Math.max(minLength, Math.min(maxLength, minLength + 40));
  return fc.oneof({ weight: 3, arbitrary: fc.string({ minLength, maxLength: max, unit: 'grapheme-ascii' }) }, { weight: 1, arbitrary: fc.string({ minLength, maxLength: max, unit: 'grapheme' }) });
}

function stringArbitrary(def: ZodDef): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = 60;
  /** The 60 above only keeps free text short; a pattern's own length (a 64-digit hash) must not be cut by it. */
  let maxDeclared = false;
  let format: string | undefined = def.format;
  let pattern: RegExp | undefined = def.pattern;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') minLength = Math.max(minLength, c.minimum ?? 0);
    if (c.check === 'max_length') {
      maxLength = Math.min(maxLength, c.maximum ?? maxLength);
      maxDeclared = true;
    }
    if (c.check === 'length_equals') {
      minLength = maxLength = (c as { length?: number }).length ?? minLength;
      maxDeclared = true;
    }
    if (c.check === 'string_format') {
      format = c.format;
      pattern = c.pattern;
    }
  }
  if (format === 'email') {
    // Mostly addresses people have, sometimes the RFC's odd corners (quoted parts, IP literals).
    const plain = fc.stringMatching(/^[a-z0-9]{1,12}(\.[a-z0-9]{1,8})?@[a-z0-9]{2,10}\.[a-z]{2,4}$/);
    return fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: fc.emailAddress() }).filter((email) => email.length <= maxLength);
  }
  if (format === 'uuid') return fc.uuid({ version: 4 });
  if (format === 'datetime') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (format === 'regex' && pattern) {
    // Without a declared maximum a 64-character pattern never fit under 60, and the filter spun forever.
    return fc.stringMatching(pattern).filter((value) => value.length >= minLength && (!maxDeclared || value.length <= Math.max(maxLength, minLength)));
  }
  return text(minLength, maxLength);
}

function numberArbitrary(def: ZodDef): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'greater_than') min = Math.max(min, (c.value ?? min) + (c.inclusive ? 0 : 1));
    if (c.check === 'less_than') max = Math.min(max, (c.value ?? max) - (c.inclusive ? 0 : 1));
    if (c.check === 'number_format') integer = true;
  }
  return integer ? fc.integer({ min, max }) : fc.oneof(fc.integer({ min, max }), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
}

/**
 * Values shaped like the schema's input: objects with their keys (optional ones sometimes left
 * out), strings within their lengths and formats, enum members, numbers within their bounds. Not
 * every value passes the schema (refinements are not read): the check asks the schema itself which
 * ones do, so a value that misses is still a useful input, just an invalid one.
 */
export function arbitraryOf(schema: z.ZodType | ZodInternals, fields: FieldArbitraries = {}): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'null':
      return fc.constant(null);
    case 'object': {
      const shape = def.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        model[key] = fields[key] ?? arbitraryOf(field, fields);
        if (field._zod.optin !== 'optional') requiredKeys.push(key);
      }
      return fc.record(model, { requiredKeys });
    }
    case 'array':
      return fc.array(arbitraryOf(def.element!, fields), { maxLength: 5 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), arbitraryOf(def.valueType!, fields), { maxKeys: 5 });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryOf(option, fields)));
    case 'intersection':
      return fc.tuple(arbitraryOf(def.left!, fields), arbitraryOf(def.right!, fields)).map(([left, right]) => ({ ...(left as object), ...(right as object) }));
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return arbitraryOf(def.innerType!, fields);
    case 'nullable':
      return fc.oneof({ weight: 4, arbitrary: arbitraryOf(def.innerType!, fields) }, { weight: 1, arbitrary: fc.constant(null) });
    case 'pipe': {
      // z.preprocess(fn, schema) is a pipe from a transform: its input is whatever `schema` takes.
      // A string piped into a stricter string (z.string().trim().pipe(z.email())): the stricter one says more.
      const inType = defOf(def.in).type;
      const outType = defOf(def.out).type;
      return inType === 'transform' || (inType === 'string' && outType === 'string') ? arbitraryOf(def.out!, fields) : arbitraryOf(def.in!, fields);
    }
    default:
      // transform, any, unknown, custom: nothing in the schema says what fits.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
