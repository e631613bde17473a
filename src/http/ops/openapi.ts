import type { Operation } from './framework.js';
import { SCOPES } from '../../model/scopes.js';

type Json = Record<string, any>;

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid body: the detail names the field',
  401: 'Missing or invalid API key',
  403: 'The key lacks the scope this operation needs',
  404: 'Unknown id in this workspace (or a continuation token of another workspace)',
  409: 'Conflict with the current state',
  413: 'File larger than 300 MB',
  415: 'Unsupported file type',
  429: 'A limit of the workspace or the key is reached; retry after `retry-after` seconds',
};

/** Body fields a connector shows under "advanced" rather than up front. */
const ADVANCED = new Set(['limit', 'cursor', 'samples', 'minPages', 'maxPages', 'minSize', 'maxSize', 'minDocuments', 'maxDocuments']);

/** Labels and help of response fields the shared REST schemas leave undescribed. */
const RESPONSE_FIELDS: Record<string, [string, string]> = {
  id: ['ID', 'The identifier.'],
  name: ['Name', 'The name.'],
  createdAt: ['Created At', 'When it was created (ISO 8601, UTC).'],
  updatedAt: ['Updated At', 'When it last changed (ISO 8601, UTC).'],
  processedAt: ['Processed At', 'When processing finished (ISO 8601, UTC).'],
  size: ['Size', 'Size in bytes.'],
  status: ['Status', 'New, Ingesting, Ingested, Processing, Ready, Error or OverQuota.'],
  url: ['URL', 'The REST URL of the resource.'],
  downloadUrl: ['Download URL', 'The REST URL of the content (GET with the same key).'],
  dgmlUrl: ['DGML URL', 'The REST URL of the document\'s DGML in its docset.'],
  documentsUrl: ['Documents URL', 'The REST URL of the docset\'s documents.'],
  docset: ['Docset', 'The docset the document is in (absent when in none).'],
  docsetCandidates: ['Docset Candidates', 'Docsets named at upload that the document will be classified into.'],
  documentCount: ['Document Count', 'How many documents the docset holds.'],
  isSample: ['Is Sample', 'True for sample content.'],
  pageCount: ['Page Count', 'Number of pages, once known.'],
  contentType: ['Content Type', 'The media type of the original.'],
  sha256: ['SHA-256', 'Hex SHA-256 of the original bytes.'],
  error: ['Error', 'Why processing failed (status Error).'],
  title: ['Title', 'Short reason.'],
  detail: ['Detail', 'Longer explanation.'],
  progress: ['Progress', 'Present while the document is being ingested.'],
  processing: ['Processing', 'How the document was read.'],
  classification: ['Classification', 'How an upload naming several docsets was classified.'],
  type: ['Type', 'Problem type URI.'],
  instance: ['Instance', 'The path of the failed request.'],
};

const titleOf = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

/**
 * Rewrites a JSON Schema (TypeBox output) into the Schema Object subset of OpenAPI 2.0 that
 * workflow platforms import: `$ref` to definitions, unions of literals as `enum`, nullable unions
 * as `x-nullable`, titles also as `x-ms-summary`, a description on every property.
 */
function convert(schema: Json, name?: string): Json {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (typeof schema.$ref === 'string') {
    return { $ref: schema.$ref.startsWith('#') ? schema.$ref : `#/definitions/${schema.$ref}` };
  }
  const out: Json = {};
  const variants: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const nonNull = variants.filter((v) => v.type !== 'null');
    if (nonNull.every((v) => 'const' in v)) Object.assign(out, { type: 'string', enum: nonNull.map((v) => v.const) });
    else if (nonNull.length === 1) Object.assign(out, convert(nonNull[0]!, name));
    else out.description = 'One of several shapes.';
    if (nonNull.length < variants.length) out['x-nullable'] = true;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (['anyOf', 'oneOf', '$id', 'contentEncoding', 'const'].includes(k)) continue;
    if (k === 'type' && Array.isArray(v)) {
      out.type = v.find((t) => t !== 'null');
      if (v.includes('null')) out['x-nullable'] = true;
    } else if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, convert(s as Json, p)]));
    } else if (k === 'items') {
      out.items = convert(v as Json);
    } else if (k === 'additionalProperties' && typeof v === 'object') {
      out.additionalProperties = convert(v as Json);
    } else out[k] = v;
  }
  if ('const' in schema) out.enum = [schema.const];
  if (name !== undefined) {
    const [title, description] = RESPONSE_FIELDS[name] ?? [titleOf(name), `${titleOf(name)}.`];
    out.title ??= title;
    out.description ??= description;
  }
  if (out.title) out['x-ms-summary'] = out.title;
  return out;
}

/** Marks body fields for the connector's form: required ones important, tuning ones advanced. */
function bodyParameter(op: Operation): Json {
  const schema = convert(op.body as Json);
  const required = new Set<string>(schema.required ?? []);
  for (const [p, s] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    s['x-ms-visibility'] = required.has(p) ? 'important' : ADVANCED.has(p) ? 'advanced' : 'none';
  }
  return { name: 'body', in: 'body', required: true, 'x-ms-summary': 'Request', description: `The ${op.id} request.`, schema };
}

/** Every schema referenced (by `$ref` name) from `roots`, resolved through `lookup`, transitively. */
function referenced(roots: unknown[], lookup: (id: string) => Json | undefined): Record<string, Json> {
  const found: Record<string, Json> = {};
  const walk = (s: unknown) => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (typeof s !== 'object' || s === null) return;
    const ref = (s as Json).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#') && !(ref in found)) {
      const target = lookup(ref);
      if (target) {
        found[ref] = target;
        walk(target);
      }
    }
    Object.values(s).forEach(walk);
  };
  walk(roots);
  return found;
}

/**
 * The connector definition of the operations: OpenAPI 2.0 (Swagger), the version Power Automate
 * and Logic Apps import as a custom connector (other platforms import it too), with Microsoft's
 * `x-ms-summary` and `x-ms-visibility` extensions.
 */
export function opsOpenApi(operations: Operation[], publicUrl: string, lookup: (id: string) => Json | undefined): Json {
  const url = new URL(publicUrl);
  const paths: Json = {};
  for (const op of operations) {
    const responses: Json = {
      200: { description: op.summary, schema: convert(op.response as Json) },
    };
    for (const code of [...new Set([400, 401, 403, ...op.errors])].sort()) {
      responses[code] = { description: STATUS_TEXT[code] ?? 'Error', schema: { $ref: '#/definitions/Problem' } };
    }
    paths[`/${op.id}`] = {
      post: {
        operationId: op.id,
        summary: op.summary,
        description: `${op.description}\n\nScope: \`${op.scope}\` (or \`admin\`).`,
        tags: [op.tag],
        'x-ms-visibility': 'important',
        consumes: ['application/json'],
        produces: ['application/json'],
        parameters: [bodyParameter(op)],
        responses,
      },
    };
  }
  const definitions = Object.fromEntries(
    Object.entries(referenced([...operations.map((o) => o.body), ...operations.map((o) => o.response), { $ref: 'Problem' }], lookup)).map(([id, s]) => [
      id,
      convert(s),
    ]),
  );
  return {
    swagger: '2.0',
    info: {
      title: 'Quire operations',
      version: '1',
      description: [
        'Operation-style interface of Quire for workflow platforms: `POST /ops/{OperationId}` with a JSON body. Same data, rules and errors as the REST API (`/v1preview1`).',
        `Authorization header: \`Bearer <API key>\`. Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}; \`admin\` grants all. Errors are Problem JSON.`,
        'Lists answer `next: [{token, range: {min, max}}]`: one continuation per slice of the hashed key space still holding items. Pass a token back as `cursor` with the same body to read that slice on; follow all of them (one after another or in parallel) to read every item exactly once. `next: []` means done.',
      ].join('\n\n'),
    },
    host: url.host,
    basePath: `${url.pathname.replace(/\/$/, '')}/ops`,
    schemes: [url.protocol.replace(':', '')],
    consumes: ['application/json'],
    produces: ['application/json'],
    securityDefinitions: {
      bearerAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The API key as `Bearer <key>`.' },
    },
    security: [{ bearerAuth: [] }],
    paths,
    definitions,
  };
}
