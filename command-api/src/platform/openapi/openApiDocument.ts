import { z } from 'zod';
import type { EndpointDoc, FileAnswer } from '../http/endpoint.js';
import { routeKey, type MountedRoute } from '../http/routeTable.js';

/** A JSON Schema (2020-12, which OpenAPI 3.1 uses as is). */
export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema: the input side for what a client sends (before transforms and
 * defaults), the output side for what the server answers. Refinements cannot be written as JSON
 * Schema and are left out (the 400 answer says they exist); a transform's output is any value.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const errorAnswer = (codes: readonly string[]): JsonSchema => ({
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string', description: 'What went wrong, in words a person can act on.' },
    // Examples, not an enum: middleware refusals (a bad Idempotency-Key, a body too deep) and a body rule's own code can answer too.
    code: codes.length ? { type: 'string', examples: [...codes], description: 'A stable code; those this route declares are listed.' } : { type: 'string' },
    details: { type: 'object', description: 'For bad input: `fields`, each field with its message.' },
  },
});

/** Routes group by their first segment after /api; a few one-route segments join their neighbours. */
const JOINED_TAGS: Record<string, string> = { ready: 'health', 'openapi.json': 'docs', upload: 'files' };
const tagOf = (path: string) => {
  const segment = path.split('/')[2] ?? 'api';
  return JOINED_TAGS[segment] ?? segment;
};

/** `/api/loans/:id` as OpenAPI writes it: `/api/loans/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const STATUS_WORDS: Record<number, string> = {
  400: 'Bad input: a field breaks its schema, or a rule of the request.',
  401: 'No valid token.',
  403: 'The caller may not do this.',
  404: 'Not found.',
  409: 'Refused by the current state.',
  422: 'Understood but not processable.',
  429: 'Too many attempts; wait and try again.',
};

/** A file answer (its media types) rather than a JSON answer's schema. */
const isFileAnswer = (answer: EndpointDoc['answer']): answer is FileAnswer => 'file' in answer && Array.isArray(answer.file);

function answerContent(answer: EndpointDoc['answer']): Record<string, unknown> {
  if (isFileAnswer(answer)) {
    return Object.fromEntries(answer.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
  }
  return { 'application/json': { schema: jsonSchemaOf(answer, 'output') } };
}

/** Refusal codes by status: `409 LOAN_EXISTS` → { 409: ['LOAN_EXISTS'] }; a bare `429` names no code. */
function refusalsByStatus(endpoints: readonly EndpointDoc[]): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, code?: string) => {
    const codes = byStatus.get(status) ?? [];
    if (code && !codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  };
  for (const doc of endpoints) {
    if (doc.body || doc.query || doc.upload) add(400, 'VALIDATION_FAILED');
    if (!doc.public) {
      add(401, 'UNAUTHORIZED');
      add(403);
    }
    for (const refusal of doc.refusals ?? []) {
      const [status, code] = refusal.split(' ');
      add(Number(status), code);
    }
  }
  return byStatus;
}

/** The operation of one route, from the documentation of the endpoints that answer it. */
function operationOf(route: MountedRoute): Record<string, unknown> {
  const endpoints = route.endpoints;
  const first = endpoints[0];
  const operation: Record<string, unknown> = {
    operationId: routeKey(route),
    summary: [...new Set(endpoints.map((doc) => doc.summary))].join(' / '),
    tags: [tagOf(route.path)],
  };
  const description = endpoints
    .map((doc) => doc.description)
    .filter(Boolean)
    .join('\n\n');
  if (description) operation.description = description;
  const parameters: Record<string, unknown>[] = route.paramNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const query = endpoints.find((doc) => doc.query)?.query;
  if (query) {
    const schema = jsonSchemaOf(query, 'input');
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) parameters.push({ name, in: 'query', required: required.has(name), schema: property });
  }
  if (parameters.length) operation.parameters = parameters;

  const body = endpoints.find((doc) => doc.body)?.body;
  const upload = endpoints.find((doc) => doc.upload)?.upload;
  if (body) operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(body, 'input') } } };
  else if (upload) {
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', required: [upload.field], properties: { [upload.field]: { type: 'string', format: 'binary', contentMediaType: upload.mediaTypes.join(', ') } } },
          encoding: { [upload.field]: { contentType: upload.mediaTypes.join(', ') } },
        },
      },
    };
  }

  const responses: Record<string, unknown> = {};
  for (const doc of endpoints) {
    const status = String(doc.status ?? 200);
    const content = answerContent(doc.answer);
    const existing = responses[status] as { content: Record<string, { schema: JsonSchema }> } | undefined;
    if (!existing) {
      responses[status] = { description: doc.summary, content };
      continue;
    }
    // Two endpoints on one path answering differently (a member's self-registration, an admin's): either answer.
    for (const [type, media] of Object.entries(content as Record<string, { schema: JsonSchema }>)) {
      const had = existing.content[type];
      if (!had) existing.content[type] = media;
      else if (JSON.stringify(had.schema) !== JSON.stringify(media.schema)) existing.content[type] = { schema: { anyOf: [had.schema, media.schema] } };
    }
  }
  for (const [status, codes] of [...refusalsByStatus(endpoints)].sort(([a], [b]) => a - b)) {
    responses[String(status)] = { description: STATUS_WORDS[status] ?? 'Refused.', content: { 'application/json': { schema: errorAnswer(codes) } } };
  }
  operation.responses = responses;
  if (first.signedBody) operation.security = [{ providerSignature: [] }];
  else if (endpoints.every((doc) => doc.public)) operation.security = [];
  return operation;
}

export interface ApiReferenceInfo {
  title: string;
  version: string;
}

/**
 * The OpenAPI 3.1 document of the API, made from the mounted route table: every route, each
 * with the schemas its endpoint validates with and answers by. A route no endpoint documents is
 * listed with that said, so the gap shows in the reference (and the route-table test fails).
 */
export function openApiDocument(routes: readonly MountedRoute[], info: ApiReferenceInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = route.endpoints.length ? operationOf(route) : { operationId: routeKey(route), summary: 'Not documented', responses: { default: { description: 'Undocumented route' } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'Honeylend lending API. Money is in pesos (numbers or numeric strings with at most two decimals) at this edge. ' +
        'Every refusal is JSON `{ message, code, details? }`; a 503 (`SERVICE_UNAVAILABLE`, `OUTCOME_UNKNOWN`) may answer any call while a dependency is away, ' +
        'a 409 `CONCURRENT_UPDATE` any write that raced another. Send `Idempotency-Key` with a POST to make a retry safe.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token sign-in answers (borrower, admin, auditor or main admin).' },
        providerSignature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: "The payment provider's HMAC-SHA256 of the exact body: `sha256=` and the hex digest." },
      },
    },
    paths,
  };
}
