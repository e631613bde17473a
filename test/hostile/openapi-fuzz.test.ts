/**
 * Hostile and malformed requests generated from the API descriptions (`/openapi.json` for the REST
 * routes, `/ops/openapi.json` for `POST /ops/{OperationId}`), sent to one real Quire (SQLite, with
 * its workers) holding real resources: wrong types, missing and extra fields, out-of-range numbers,
 * overlong strings, invalid UTF-8, NUL, bad cursors and tokens, garbage path ids, wrong content
 * types, empty, huge and deeply nested bodies, missing, invalid and other-scope keys.
 *
 * Every answer must be a documented 2xx or a 4xx Problem JSON, never a 5xx or a hang; a JSON 2xx of
 * a REST route must have every field its response schema requires, of its type (so every field the
 * description names is served: Document.metadata, Page.document, Webhook.webhookUrl, …); `/healthz`
 * answers between batches; the process survives and exits 0 on SIGTERM. Every violation is
 * collected and reported at once.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, multipartBody, until, type Client } from '../helpers/http.js';
import { FAKE_ID, createFixtures, realParam, type Fixtures } from '../helpers/api-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const REQUEST_TIMEOUT_MS = 15_000;
const CONCURRENCY = 8;
const BATCH = 100;
const MIN_REQUESTS = 2000;

// ---------------------------------------------------------------------------------------------
// Requests and their judgement

interface Req {
  /** `METHOD /template` of the operation, for the report. */
  route: string;
  /** What was hostile about it. */
  what: string;
  method: string;
  /** Absolute URL. */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer | FormData;
  /** 2xx statuses the description documents for the operation. */
  success: number[];
  /** The JSON schema of each documented 2xx answer (REST), and how to resolve its references. */
  answers?: { schemas: Record<number, Json>; resolve: (s: Json) => Json };
}

interface Violation {
  route: string;
  what: string;
  status: number | string;
  excerpt: string;
}

const excerpt = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
const short = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Where `value` falls short of schema `s` (a required field missing, a field of another type), or null. */
function unlike(value: unknown, s: Json, resolve: (s: Json) => Json, at: string, depth = 0): string | null {
  if (depth > 8) return null;
  s = resolve(s);
  const variants: Json[] | undefined = s.anyOf ?? s.oneOf;
  if (variants) {
    const misses = variants.map((v) => unlike(value, v, resolve, at, depth + 1));
    return misses.some((m) => m === null) ? null : (misses.find((m) => m && !m.endsWith('is not null')) ?? misses[0]!);
  }
  if ('const' in s) return value === s.const ? null : `${at} is not ${JSON.stringify(s.const)}`;
  if (s.enum) return s.enum.includes(value) ? null : `${at} = ${JSON.stringify(value)} is not one of ${s.enum.join(', ')}`;
  const t = Array.isArray(s.type) ? (value === null && s.type.includes('null') ? 'null' : s.type.find((x: string) => x !== 'null')) : s.type;
  switch (t ?? (s.properties ? 'object' : undefined)) {
    case 'null':
      return value === null ? null : `${at} is not null`;
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${at} is not an object`;
      const o = value as Record<string, unknown>;
      for (const r of (s.required ?? []) as string[]) if (!(r in o)) return `${at}.${r} is missing`;
      for (const [k, ps] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const miss = k in o ? unlike(o[k], ps, resolve, `${at}.${k}`, depth + 1) : null;
        if (miss) return miss;
      }
      return null;
    }
    case 'array': {
      if (!Array.isArray(value)) return `${at} is not an array`;
      for (const [i, v] of value.slice(0, 5).entries()) {
        const miss = unlike(v, s.items ?? {}, resolve, `${at}[${i}]`, depth + 1);
        if (miss) return miss;
      }
      return null;
    }
    case 'string':
      return typeof value === 'string' ? null : `${at} is not a string`;
    case 'integer':
      return Number.isInteger(value) ? null : `${at} is not an integer`;
    case 'number':
      return typeof value === 'number' ? null : `${at} is not a number`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${at} is not a boolean`;
    default:
      return null;
  }
}

/** Why an answer breaks the contract, or null. */
function judge(req: Req, status: number, contentType: string, text: string): string | null {
  if (status >= 500) return 'server error';
  if (status >= 200 && status < 300) {
    if (!req.success.includes(status)) return `undocumented success status (documented: ${req.success.join(', ')})`;
    const schema = req.answers?.schemas[status];
    if (!schema || req.method === 'HEAD' || !/^application\/json/.test(contentType)) return null;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return 'a JSON success whose body is not JSON';
    }
    const miss = unlike(body, schema, req.answers!.resolve, 'body');
    return miss ? `the answer does not match its documented schema: ${miss}` : null;
  }
  if (status === 304) return null;
  if (status < 400) return `unexpected status class`;
  if (req.method === 'HEAD') return null;
  if (!/^application\/problem\+json/.test(contentType)) return `4xx without Problem JSON (content-type: ${contentType || 'none'})`;
  let p: Json;
  try {
    p = JSON.parse(text);
  } catch {
    return '4xx Problem body is not JSON';
  }
  for (const f of ['type', 'title', 'detail', 'instance']) if (typeof p?.[f] !== 'string') return `Problem without a string "${f}"`;
  if (p.status !== status) return `Problem status ${p.status} differs from the HTTP status`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Schema helpers

function resolver(doc: Json) {
  const resolve = (s: Json): Json => {
    for (let guard = 0; s && typeof s === 'object' && typeof s.$ref === 'string' && guard < 20; guard++) {
      const ref: string = s.$ref;
      if (ref.startsWith('#/')) {
        s = ref
          .slice(2)
          .split('/')
          .reduce((o: Json, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      } else s = doc.components?.schemas?.[ref] ?? doc.definitions?.[ref];
    }
    return s ?? {};
  };
  return resolve;
}

/** The first non-null variant of a union, or the schema itself. */
function mainVariant(s: Json, resolve: (s: Json) => Json): Json {
  s = resolve(s);
  const variants: Json[] | undefined = s.anyOf ?? s.oneOf;
  if (variants) {
    const nonNull = variants.map(resolve).filter((v) => v.type !== 'null');
    const enums = nonNull.flatMap((v) => v.enum ?? ('const' in v ? [v.const] : []));
    if (enums.length === nonNull.length && enums.length) return { type: 'string', enum: enums };
    return nonNull[0] ?? {};
  }
  if (Array.isArray(s.type)) return { ...s, type: s.type.find((t: string) => t !== 'null') };
  return s;
}

/** Hostile JSON values for a field of schema `s`. */
function wrongJsonValues(s: Json, name: string): unknown[] {
  const t = s.type ?? (s.enum ? 'string' : s.properties ? 'object' : undefined);
  const common: unknown[] = [null, [], {}];
  if (t === 'string') {
    const out: unknown[] = [123, 12.5, true, ...common, ['a'], '', 'x'.repeat(100 * 1024), 'a\u0000b', '\ud800', '\u202e\u0301', '../../etc/passwd', '<x a="&amp;">\'</x>'];
    if (s.enum) out.push('NotAValue', String(s.enum[0]).toLowerCase(), ` ${s.enum[0]}`);
    if (s.format === 'date-time') out.push('not-a-date', '9999-99-99T99:99:99Z');
    if (s.maxLength !== undefined) out.push('y'.repeat(s.maxLength + 1));
    if (/url/i.test(name)) out.push('javascript:alert(1)', 'http://169.254.169.254/latest/meta-data', 'file:///etc/passwd', 'http://[::1', 'ftp://example.com/x', 'http://127.0.0.1:9/%ff%fe');
    if (s.format === 'byte' || s.contentEncoding === 'base64') out.push('!!!not base64!!!', '=', 'YQ', '\u00ff\u00fe');
    return out;
  }
  if (t === 'integer' || t === 'number') {
    const out: unknown[] = ['1', 1.5, -1, 0, 1e9, 1e308, -1e308, 2 ** 53 + 1, true, ...common, 'abc'];
    if (typeof s.minimum === 'number') out.push(s.minimum - 1);
    if (typeof s.maximum === 'number') out.push(s.maximum + 1);
    return out;
  }
  if (t === 'boolean') return ['true', 1, 0, 'yes', ...common];
  if (t === 'array') return [{}, 'x', 1, true, null, [null], [1, 'x', {}, []], Array.from({ length: 10_001 }, () => 'a')];
  if (t === 'object') return ['x', 1, true, null, [], { zzz: 1 }];
  return [null, 'x', 1, [], {}];
}

// ---------------------------------------------------------------------------------------------
// Raw hostile values

const GARBAGE_IDS = [
  '..%2f..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  'x'.repeat(10 * 1024),
  '%E6%96%87%E6%9B%B8%F0%9F%93%84',
  '%00',
  'a%00b',
  '%ff%fe',
  '%C0%AF',
  'zzzzzzzzzzzzzzzz',
  '-1',
  '0',
  '1.5',
  '1e9',
  '99999999999999999999999999',
  "'%20OR%20'1'%3D'1",
  '%20',
  'null',
  '%7B%22a%22%3A1%7D',
  'a%2Fb',
  '%3Cscript%3E',
  'A'.repeat(65),
];

const LIMITS = ['0', '101', '-1', '1e9', 'abc', '1.5', '', '%ff%fe', '%00', '99999999999999999999999', '0x10', '%201', '1,2', 'NaN', 'Infinity'];
const STRINGS_Q = ['%ff%fe', '%00', 'a%00b', 'x'.repeat(5000), '%E2%80%AE', '%', '%zz', '%C0%AF', '', '%F0%9F%93%84'];
const BOOLS_Q = ['maybe', '2', '', '%ff%fe', '%00', 'TRUE', 'null'];

/** Query values for a parameter of schema `s`. */
function wrongQueryValues(s: Json, name: string): string[] {
  if (name === 'limit') return LIMITS;
  const t = s.type ?? (s.enum ? 'string' : undefined);
  if (t === 'integer' || t === 'number') {
    const out = LIMITS.filter((v) => v !== '101');
    if (typeof s.maximum === 'number') out.push(String(s.maximum + 1), `${s.maximum}0`);
    return out;
  }
  if (t === 'boolean') return BOOLS_Q;
  const out = [...STRINGS_Q];
  if (s.enum) out.push('NotAValue', encodeURIComponent(String(s.enum[0]).toLowerCase()));
  if (s.maxLength !== undefined && s.maxLength < 5000) out.push('y'.repeat(s.maxLength + 1));
  return out;
}

/** A token with one character of its payload changed (the signature left as it was). */
function tamper(token: string): string {
  const i = Math.min(5, token.length - 1);
  const c = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + c + token.slice(i + 1);
}

function badTokens(real: string | undefined, foreign: string | undefined): string[] {
  const out = [
    randomBytes(48).toString('base64'),
    randomBytes(48).toString('base64url'),
    `${randomBytes(24).toString('base64url')}.${randomBytes(18).toString('base64url')}`,
    'a.b',
    'a.b.c',
    '.',
    'x'.repeat(8193),
    '%ff%fe',
    'a%00b',
    `${Buffer.from('{"r":1}').toString('base64url')}.AAAA`,
  ];
  if (real) out.push(tamper(real), `${real}x`, real.split('.')[0]!, `${real}.x`, real.slice(0, -1));
  if (foreign) out.push(foreign);
  return out;
}

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

// ---------------------------------------------------------------------------------------------
// The fixtures: real ids to put into paths and bodies

/** The real value of a body field, by its name and the operation (ops bodies name an `id`). */
function realField(fx: Fixtures, context: string, name: string): string | undefined {
  if (/^(docsetId|docset\.id|docsetIds|targetId)$/.test(name)) return fx.docset;
  // The destructive operations take the second document and docset: the REST deletes take the first.
  if (/^(documentId|document\.id)$/.test(name)) return /^Remove/.test(context) ? fx.document2 : fx.document;
  if (name === 'projectId') return fx.project;
  if (name === 'id') {
    if (/Docset/.test(context)) return context === 'DeleteDocset' ? fx.docset2 : fx.docset;
    if (/Document/.test(context)) return fx.document;
    if (/Project|Artifact/.test(context)) return fx.project;
    return FAKE_ID; // POST /samples: a real catalog id would generate documents; not this test's business
  }
  if (name === 'url') return 'http://127.0.0.1:9/hook';
  if (name === 'target') return 'Documents';
  // A short secret, as hosted-service users have them (any non-empty string of at most 1024 characters).
  if (name === 'secret') return 's3cr3t-bars';
  if (name === 'fileName') return 'fuzz.txt';
  if (name === 'base64Content') return Buffer.from('fuzz text\n').toString('base64');
  if (name === 'version') return fx.version;
  return undefined;
}

/** A valid-looking value of schema `s` (with real ids where the name says so). */
function example(s: Json, resolve: (s: Json) => Json, fx: Fixtures, context: string, name: string, depth = 0): unknown {
  s = mainVariant(s, resolve);
  const real = realField(fx, context, name);
  if (s.enum) return real !== undefined && s.enum.includes(real) ? real : s.enum[0];
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'string':
      if (real !== undefined) return real;
      if (s.format === 'date-time') return new Date().toISOString();
      if (name === 'name' || name === 'label') return `fuzz-${name}-${randomBytes(4).toString('hex')}`;
      return 'x'.repeat(Math.max(1, s.minLength ?? 4));
    case 'integer':
    case 'number':
      return name === 'fileSize' ? 10 : (s.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return depth > 3 ? [] : [example(s.items ?? {}, resolve, fx, context, name, depth + 1)].slice(0, Math.max(1, s.minItems ?? 1));
    case 'object':
    default: {
      if (!s.properties || depth > 3) return {};
      const out: Record<string, unknown> = {};
      const required: string[] = s.required ?? [];
      for (const [k, v] of Object.entries(s.properties as Record<string, Json>)) {
        if (required.includes(k)) out[k] = example(v, resolve, fx, context, k, depth + 1);
      }
      return out;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generators

interface Operation {
  route: string;
  method: string;
  /** Path template (`{id}` placeholders). */
  path: string;
  /** Origin-relative URL builder from path parameter values (already encoded). */
  url: (params: Record<string, string>, query?: string) => string;
  pathParams: string[];
  query: { name: string; schema: Json }[];
  /** The JSON body schema, when the operation takes JSON. */
  body?: Json;
  multipart: boolean;
  success: number[];
  /** Deletes or detaches a real fixture when called with real ids. */
  destructive: boolean;
  /** The JSON schemas of the documented 2xx answers (REST only). */
  answerSchemas?: Record<number, Json>;
  context: string;
  resolve: (s: Json) => Json;
  isOps: boolean;
}

function restOperations(doc: Json, origin: string): Operation[] {
  const resolve = resolver(doc);
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    if (!path.startsWith('/v1preview1/')) continue;
    for (const [m, o] of Object.entries(methods as Record<string, Json>)) {
      const method = m.toUpperCase();
      const params: Json[] = (o.parameters ?? []).map(resolve);
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string);
      out.push({
        route: `${method} ${path}`,
        method,
        path,
        url: (values, query) => origin + path.replace(/\{([^}]+)\}/g, (_, n: string) => values[n] ?? FAKE_ID) + (query ? `?${query}` : ''),
        pathParams,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: o.requestBody?.content?.['application/json']?.schema,
        multipart: /multipart\/form-data/.test(o.description ?? ''),
        success: Object.keys(o.responses ?? {})
          .map(Number)
          .filter((c) => c >= 200 && c < 300),
        answerSchemas: Object.fromEntries(
          Object.entries((o.responses ?? {}) as Record<string, Json>)
            .filter(([c, r]) => Number(c) >= 200 && Number(c) < 300 && resolve(r).content?.['application/json']?.schema)
            .map(([c, r]) => [Number(c), resolve(r).content['application/json'].schema]),
        ),
        destructive: method === 'DELETE',
        context: path,
        resolve,
        isOps: false,
      });
    }
  }
  return out;
}

function opsOperations(doc: Json, origin: string): Operation[] {
  const resolve = resolver(doc);
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
    const o = (methods as Json).post;
    if (!o) continue;
    const body = (o.parameters ?? []).find((p: Json) => p.in === 'body')?.schema ?? { type: 'object' };
    out.push({
      route: `POST /ops${path}`,
      method: 'POST',
      path: `/ops${path}`,
      url: (_v, query) => `${origin}/ops${path}${query ? `?${query}` : ''}`,
      pathParams: [],
      query: [],
      body,
      multipart: false,
      success: Object.keys(o.responses ?? {})
        .map(Number)
        .filter((c) => c >= 200 && c < 300),
      destructive: /^(Delete|Remove)/.test(o.operationId),
      context: o.operationId,
      resolve,
      isOps: true,
    });
  }
  return out;
}

interface Keys {
  admin: string;
  /** A key of the same workspace with only `read:webhooks`. */
  otherScope: string;
  /** An admin key of another workspace. */
  otherWorkspace: string;
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Every hostile request for one operation. `real`: whether real ids may be used with a valid key. */
function requestsFor(op: Operation, fx: Fixtures, keys: Keys, real: boolean): Req[] {
  const reqs: Req[] = [];
  const realParams = Object.fromEntries(op.pathParams.map((p) => [p, real ? realParam(fx, op.path, p) : FAKE_ID]));
  const base = (what: string, over: Partial<Req> = {}): Req => ({
    route: op.route,
    what,
    method: op.method,
    url: op.url(realParams),
    headers: auth(keys.admin),
    success: op.success,
    // A garbage path segment may name another route (`..` is resolved away): its answer is that route's.
    ...(op.answerSchemas && !/^(HEAD with )?path \{|^HEAD with \{/.test(what) ? { answers: { schemas: op.answerSchemas, resolve: op.resolve } } : {}),
    ...over,
  });
  const bodyExample = op.body ? (example(op.body, op.resolve, fx, real ? op.context : 'none', '') as Record<string, unknown>) : undefined;
  if (!real && bodyExample) for (const k of Object.keys(bodyExample)) if (/id$|Ids?$|\.id$/i.test(k)) bodyExample[k] = FAKE_ID;
  const jsonHeaders = { ...auth(keys.admin), 'content-type': 'application/json' };
  const withJson = (what: string, value: unknown, extra: Partial<Req> = {}) =>
    reqs.push(base(what, { body: JSON.stringify(value), headers: jsonHeaders, ...extra }));
  const withRaw = (what: string, body: string | Buffer, contentType: string | null, extra: Partial<Req> = {}) =>
    reqs.push(base(what, { body: typeof body === 'string' ? Buffer.from(body) : body, headers: contentType ? { ...auth(keys.admin), 'content-type': contentType } : auth(keys.admin), ...extra }));

  // Authorization: none, invalid, other scheme, overlong, other scope, other workspace.
  const authVariants: [string, Record<string, string>][] = [
    ['no Authorization', {}],
    ['Authorization: Bearer (no key)', { authorization: 'Bearer' }],
    ['Authorization: Bearer <unknown key>', auth(`unknown-${randomBytes(8).toString('hex')}`)],
    ['Authorization: Basic', { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }],
    ['Authorization: Bearer <8 KB>', auth('k'.repeat(8000))],
    ['Authorization: Bearer a b', { authorization: 'Bearer a b' }],
    ['Authorization: Token <key>', { authorization: `Token ${keys.admin}` }],
    ['Authorization: Bearer <key of another scope>', auth(keys.otherScope)],
    ['Authorization: Bearer <key of another workspace>', auth(keys.otherWorkspace)],
  ];
  const bodyForAuth = op.body ? { body: JSON.stringify(bodyExample) } : {};
  for (const [what, h] of authVariants) {
    reqs.push(base(what, { headers: { ...h, ...(op.body ? { 'content-type': 'application/json' } : {}) }, ...bodyForAuth }));
  }

  // The plain call (lower-case scheme, valid key): real ids, valid body. Never for a destructive call in the main phase.
  if (!op.destructive || real) {
    reqs.push(base('valid request (lower-case "bearer")', { headers: { authorization: `bearer ${keys.admin}`, ...(op.body ? { 'content-type': 'application/json' } : {}) }, ...bodyForAuth }));
  }
  if (real && op.destructive) return reqs;

  // Garbage in each path parameter, the others real.
  for (const p of op.pathParams) {
    for (const g of GARBAGE_IDS) {
      reqs.push(base(`path {${p}} = ${short(g, 40)}`, { url: op.url({ ...realParams, [p]: g }), ...(op.body ? { body: JSON.stringify(bodyExample), headers: jsonHeaders } : {}) }));
    }
  }
  if (op.method === 'GET') {
    reqs.push(base('HEAD', { method: 'HEAD' }));
    for (const p of op.pathParams) reqs.push(base(`HEAD with {${p}} = %ff%fe`, { method: 'HEAD', url: op.url({ ...realParams, [p]: '%ff%fe' }) }));
  }

  // Query parameters: hostile values one at a time, repeated, bracketed, unknown, overlong.
  const realCursor = fx.cursors.get(op.path);
  const foreignCursor = [...fx.cursors.entries()].find(([k]) => k !== op.path && k.startsWith('/'))?.[1];
  for (const q of op.query) {
    const schema = mainVariant(q.schema, op.resolve);
    const values = q.name === 'cursor' ? badTokens(realCursor, foreignCursor).map(encodeURIComponent) : wrongQueryValues(schema, q.name);
    for (const v of values) reqs.push(base(`query ${q.name}=${short(v, 40)}`, { url: op.url(realParams, `${encodeURIComponent(q.name)}=${v}`) }));
    reqs.push(base(`query ${q.name} repeated`, { url: op.url(realParams, `${q.name}=1&${q.name}=abc`) }));
    reqs.push(base(`query ${q.name}[]`, { url: op.url(realParams, `${q.name}[]=1&${q.name}[a]=2`) }));
  }
  if (realCursor) reqs.push(base('query cursor with other limit', { url: op.url(realParams, `cursor=${encodeURIComponent(realCursor)}&limit=abc`) }));
  if (op.method === 'GET') {
    reqs.push(base('query with unknown parameters', { url: op.url(realParams, 'zzz=1&__proto__[x]=1&constructor=1') }));
    reqs.push(base('query %ff%fe as a name', { url: op.url(realParams, '%ff%fe=1&a%00=2') }));
    reqs.push(base('query of 100 KB', { url: op.url(realParams, `zzz=${'q'.repeat(100 * 1024)}`) }));
    reqs.push(base('query of 10 KB', { url: op.url(realParams, `zzz=${'q'.repeat(10 * 1024)}`) }));
    reqs.push(base('GET with a JSON content type', { headers: jsonHeaders }));
  }

  // JSON bodies.
  if (op.body) {
    const schema = mainVariant(op.body, op.resolve);
    withJson('valid body with an extra field', { ...bodyExample, zzz: 'extra' });
    const props = Object.entries((schema.properties ?? {}) as Record<string, Json>);
    for (const [name, ps] of props) {
      const s = mainVariant(ps, op.resolve);
      for (const v of wrongJsonValues(s, name)) withJson(`body ${name} = ${short(JSON.stringify(v) ?? 'undefined', 40)}`, { ...bodyExample, [name]: v });
      // One level down: objects and arrays of objects get hostile members too.
      const inner = s.type === 'array' ? mainVariant(s.items ?? {}, op.resolve) : s;
      if (inner.type === 'object' && inner.properties) {
        const innerExample = example(inner, op.resolve, fx, op.context, name, 1) as Record<string, unknown>;
        for (const [iname, ips] of Object.entries(inner.properties as Record<string, Json>)) {
          for (const v of wrongJsonValues(mainVariant(ips, op.resolve), iname).slice(0, 10)) {
            const member = { ...innerExample, [iname]: v };
            withJson(`body ${name}.${iname} = ${short(JSON.stringify(v) ?? 'undefined', 40)}`, { ...bodyExample, [name]: s.type === 'array' ? [member] : member });
          }
        }
      }
    }
    for (const r of (schema.required ?? []) as string[]) {
      const { [r]: _gone, ...rest } = bodyExample ?? {};
      withJson(`body without required ${r}`, rest);
    }
    for (const [what, v] of [
      ['empty object', {}],
      ['null', null],
      ['array', []],
      ['string', 'str'],
      ['number', 42],
      ['boolean', true],
    ] as [string, unknown][])
      withJson(`body is ${what}`, v);
    const text = JSON.stringify(bodyExample);
    withRaw('body {"__proto__": …}', `{"__proto__":{"polluted":1},${text.slice(1)}`, 'application/json');
    withRaw('body {"constructor": {"prototype": …}}', `{"constructor":{"prototype":{"polluted":1}}${text.length > 2 ? ',' : ''}${text.slice(1)}`, 'application/json');
    withRaw('body with duplicate keys', `{"zzz":1,"zzz":"two",${text.slice(1)}`.replace(',}', '}'), 'application/json');
    // Invalid UTF-8 inside a JSON string, as a field value and as a key.
    const firstString = props.find(([, ps]) => mainVariant(ps, op.resolve).type === 'string')?.[0] ?? 'zzz';
    for (const [what, bytes] of [
      ['ff fe', [0xff, 0xfe]],
      ['overlong c0 af', [0xc0, 0xaf]],
      ['lone surrogate ed a0 80', [0xed, 0xa0, 0x80]],
      ['truncated e6 96', [0xe6, 0x96]],
    ] as [string, number[]][]) {
      const rest = { ...bodyExample };
      delete rest[firstString];
      const tail = JSON.stringify(rest).slice(1);
      withRaw(`body ${firstString} with invalid UTF-8 (${what})`, Buffer.concat([Buffer.from(`{"${firstString}":"a`), Buffer.from(bytes), Buffer.from(`b"${tail === '}' ? '' : ','}${tail}`)]), 'application/json');
      withRaw(`body key with invalid UTF-8 (${what})`, Buffer.concat([Buffer.from('{"'), Buffer.from(bytes), Buffer.from(`":1${text.length > 2 ? ',' : ''}${text.slice(1)}`)]), 'application/json');
    }
    withRaw('body with a NUL escape in every string', text.replace(/":"/g, '":"\\u0000'), 'application/json');
  }

  // Bodies every body-taking method meets: malformed, empty, huge, deep, wrong content types.
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) {
    const text = bodyExample ? JSON.stringify(bodyExample) : '{}';
    withRaw('empty body, content-type JSON', '', 'application/json');
    withRaw('whitespace body, content-type JSON', ' \n ', 'application/json');
    withRaw('empty body, no content-type', '', null);
    withRaw('body "{"', '{', 'application/json');
    withRaw('body with a trailing comma', '{"a":1,}', 'application/json');
    withRaw('body with single quotes', "{'a':1}", 'application/json');
    withRaw('body with NaN', '{"a":NaN}', 'application/json');
    withRaw('body with a BOM', `\uFEFF${text}`, 'application/json');
    withRaw('body followed by garbage', `${text}garbage`, 'application/json');
    withRaw('body of 2 MB', JSON.stringify({ ...bodyExample, pad: 'x'.repeat(2 * 1024 * 1024) }), 'application/json');
    withRaw('body nested 10,000 arrays deep', deepArray(10_000), 'application/json');
    withRaw('body nested 10,000 objects deep', deepObject(10_000), 'application/json');
    withRaw('body with a field nested 10,000 deep', `{"zzz":${deepArray(10_000)}${text.length > 2 ? ',' : ''}${text.slice(1)}`, 'application/json');
    withRaw('body with 50,000 keys', `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":0`).join(',')}}`, 'application/json');
    withRaw('body as text/plain', text, 'text/plain');
    withRaw('body as text/plain; charset=utf-8', text, 'text/plain; charset=utf-8');
    withRaw('body as application/x-www-form-urlencoded', 'a=1&b=%ff%fe', 'application/x-www-form-urlencoded');
    withRaw('body as application/xml', '<a>1</a>', 'application/xml');
    withRaw('body as application/json; charset=utf-16', Buffer.from(text, 'utf16le'), 'application/json; charset=utf-16');
    withRaw('body as application/json; charset=latin1', text, 'application/json; charset=latin1');
    withRaw('body as APPLICATION/JSON', text, 'APPLICATION/JSON');
    withRaw('body as application/json;;;', text, 'application/json;;;');
    withRaw('body as application/jsonx', text, 'application/jsonx');
    withRaw('body with content-type garbage', text, ';;==;');
    withRaw('body without content-type', text, null);
    withRaw('body as application/octet-stream', randomBytes(512), 'application/octet-stream');
    // Multipart to a JSON route (and a form of JSON fields to any route).
    const form = new FormData();
    for (const [k, v] of Object.entries(bodyExample ?? { a: '1' })) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    form.append('file', new Blob([Buffer.from('fuzz text\n')]), 'fuzz.txt');
    reqs.push(base('multipart form of the body fields', { body: form }));
    withRaw('multipart without a boundary', 'abc', 'multipart/form-data');
    withRaw('multipart, unterminated part', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello', 'multipart/form-data; boundary=xyz');
    withRaw('multipart, empty body', '', 'multipart/form-data; boundary=xyz');
    withRaw('multipart, only the closing boundary', '--xyz--\r\n', 'multipart/form-data; boundary=xyz');
    withRaw('multipart, part without Content-Disposition', '--xyz\r\nContent-Type: text/plain\r\n\r\nhello\r\n--xyz--\r\n', 'multipart/form-data; boundary=xyz');
    withRaw(
      'multipart, part header of 100 KB',
      `--xyz\r\nContent-Disposition: form-data; name="a"; x="${'h'.repeat(100 * 1024)}"\r\n\r\nhello\r\n--xyz--\r\n`,
      'multipart/form-data; boundary=xyz',
    );
    withRaw('multipart, boundary of 300 characters', `--${'b'.repeat(300)}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${'b'.repeat(300)}--\r\n`, `multipart/form-data; boundary=${'b'.repeat(300)}`);
    withRaw('multipart/mixed', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n', 'multipart/mixed; boundary=xyz');
  }

  // Multipart routes: forms with hostile fields and files.
  if (op.multipart) {
    const fields = { 'docset.id': real ? fx.docset : FAKE_ID, fileName: 'fuzz.txt', fileSize: '10', byteOffset: '0' };
    const formOf = (fs: Record<string, string>, files: [string, Buffer, string][]) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fs)) f.append(k, v);
      for (const [field, bytes, name] of files) f.append(field, new Blob([bytes]), name);
      return f;
    };
    const txt = Buffer.from('fuzz text\n');
    const variants: [string, Record<string, string>, [string, Buffer, string][]][] = [
      ['multipart: valid small TXT', fields, [['file', txt, 'fuzz.txt']]],
      ['multipart: no file part', fields, []],
      ['multipart: file in a part named "document"', fields, [['document', txt, 'fuzz.txt']]],
      ['multipart: two files', fields, [['file', txt, 'a.txt'], ['file', txt, 'b.txt']]],
      ['multipart: empty file', fields, [['file', Buffer.alloc(0), 'empty.txt']]],
      ['multipart: .exe file', fields, [['file', randomBytes(64), 'evil.exe']]],
      ['multipart: file without extension, random bytes', fields, [['file', randomBytes(256), 'noext']]],
      ['multipart: file name ../../etc/passwd.txt', fields, [['file', txt, '../../etc/passwd.txt']]],
      ['multipart: file name of 10 KB', fields, [['file', txt, `${'n'.repeat(10 * 1024)}.txt`]]],
      ['multipart: unicode file name', fields, [['file', txt, '文書\u202e.txt']]],
      ['multipart: docset.id garbage', { ...fields, 'docset.id': '..%2f..|%ff' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: docset.id of 100 KB', { ...fields, 'docset.id': 'd'.repeat(100 * 1024) }, [['file', txt, 'fuzz.txt']]],
      ['multipart: docset.id with NUL', { ...fields, 'docset.id': 'a\u0000b' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: metadata not JSON', { ...fields, metadata: '{not json' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: metadata wrong shape', { ...fields, metadata: '{"metadata":"x"}' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: metadata deep', { ...fields, metadata: deepObject(10_000) }, [['file', txt, 'fuzz.txt']]],
      ['multipart: fileSize abc', { ...fields, fileSize: 'abc' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: fileSize -1', { ...fields, fileSize: '-1' }, []],
      ['multipart: fileSize 1e30', { ...fields, fileSize: '1e30' }, []],
      ['multipart: byteOffset -1', { ...fields, byteOffset: '-1' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: byteOffset abc', { ...fields, byteOffset: 'abc' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: byteOffset 1e300', { ...fields, byteOffset: '1e300' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: byteOffset 1.5', { ...fields, byteOffset: '1.5' }, [['file', txt, 'fuzz.txt']]],
      ['multipart: 50 fields', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 'v'])), [['file', txt, 'fuzz.txt']]],
      ['multipart: a field of 2 MB', { ...fields, metadata: 'm'.repeat(2 * 1024 * 1024) }, [['file', txt, 'fuzz.txt']]],
      ['multipart: document.id garbage', { ...fields, 'document.id': '%00' }, [['file', Buffer.from('{"a":1}'), 'x.json']]],
      ['multipart: file before the fields', {}, [['file', txt, 'fuzz.txt']]],
    ];
    for (const [what, fs, files] of variants) reqs.push(base(what, { body: formOf(fs, files) }));
    const order = new FormData();
    order.append('file', new Blob([txt]), 'fuzz.txt');
    order.append('byteOffset', '0');
    order.append('docset.id', fields['docset.id']);
    reqs.push(base('multipart: text field after the file', { body: order }));
    // Text parts typed application/json (curl -F 'metadata=…;type=application/json'): the same rules as untyped ones.
    const typed = (value: string | Buffer, type = 'application/json') => [
      ...Object.entries(fields).map(([name, v]) => ({ name, value: v })),
      { name: 'metadata', value, type },
      { name: 'file', filename: 'fuzz.txt', value: txt },
    ];
    for (const [what, value, type] of [
      ['valid', JSON.stringify({ metadata: [{ key: 'k', value: 'v' }] }), undefined],
      ['valid, charset', JSON.stringify({ metadata: [{ key: 'k', value: 'v' }] }), 'application/json; charset=utf-8'],
      ['not JSON', '{"metadata": [', undefined],
      ['empty', '', undefined],
      ['null', 'null', undefined],
      ['a JSON string', JSON.stringify(JSON.stringify({ metadata: [] })), undefined],
      ['a bare array', JSON.stringify([{ key: 'k', value: 'v' }]), undefined],
      ['11 entries', JSON.stringify({ metadata: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }), undefined],
      ['__proto__', '{"__proto__": {"x": 1}, "metadata": []}', undefined],
      ['deep', deepObject(5000), undefined],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), undefined],
    ] as [string, string | Buffer, string | undefined][]) {
      const form = multipartBody(typed(value, type));
      reqs.push(base(`multipart: metadata part typed JSON, ${what}`, { body: form.body, headers: { ...auth(keys.admin), ...form.headers } }));
    }
    withRaw('JSON to a multipart route', JSON.stringify({ fileName: 'fuzz.txt', fileSize: 10 }), 'application/json');
    withRaw('JSON garbage to a multipart route', '{"fileName":', 'application/json');
  }

  // A method the path does not have.
  const other = op.method === 'PATCH' ? 'PUT' : 'PATCH';
  reqs.push(base(`${other} instead of ${op.method}`, { method: other, body: '{}', headers: jsonHeaders }));
  return reqs;
}

// ---------------------------------------------------------------------------------------------
// Running

async function send(req: Req): Promise<{ status: number; contentType: string; text: string } | { error: string }> {
  try {
    const r = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'manual' });
    const text = req.method === 'HEAD' ? '' : Buffer.from(await r.arrayBuffer()).toString('utf8');
    return { status: r.status, contentType: r.headers.get('content-type') ?? '', text };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return { error: `${e.name}: ${e.message}${e.cause ? ` (${e.cause.message})` : ''}` };
  }
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** The `cursor` of a `next` URL. */
const cursorOf = (next: unknown) => (typeof next === 'string' ? (new URL(next).searchParams.get('cursor') ?? undefined) : undefined);

describe('hostile requests generated from the OpenAPI descriptions', () => {
  let q: Quire;
  let c: Client;
  let keys: Keys;
  let fx: Fixtures;

  before(async () => {
    q = await startQuire({ extraEnv: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    c = client(q.api, q.key);
    const keyOf = async (workspace: string, scopes: string) => {
      const r = await q.cli(['keys', 'create', '--workspace', workspace, '--scopes', scopes]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };
    assert.equal((await q.cli(['workspaces', 'create', 'elsewhere'])).code, 0);
    keys = { admin: q.key, otherScope: await keyOf('default', 'read:webhooks'), otherWorkspace: await keyOf('elsewhere', 'admin') };

    fx = await createFixtures(c, 'fuzz');
  });

  after(async () => {
    if (q && q.process.exitCode === null) await q.stop();
  });

  test('every answer is a documented success or a 4xx Problem, never a 5xx or a hang; /healthz throughout', { timeout: 20 * 60_000 }, async () => {
    const rest = restOperations(await (await fetch(`${q.origin}/openapi.json`)).json(), q.origin);
    const opsDoc = await (await fetch(`${q.origin}/ops/openapi.json`, { headers: auth(keys.admin) })).json();
    const ops = opsOperations(opsDoc, q.origin);
    assert.ok(rest.length >= 50, `only ${rest.length} REST operations described`);
    assert.ok(ops.length >= 10, `only ${ops.length} operations in /ops/openapi.json`);
    const all = [...rest, ...ops];

    // Real cursors (REST lists with limit 1) and continuation tokens (ops lists with limit 1).
    for (const op of rest) {
      if (op.method !== 'GET' || !op.query.some((p) => p.name === 'cursor')) continue;
      const r = await fetch(op.url(Object.fromEntries(op.pathParams.map((p) => [p, realParam(fx, op.path, p)])), 'limit=1'), { headers: auth(keys.admin) });
      const cursor = r.ok ? cursorOf(((await r.json()) as Json).next) : undefined;
      if (cursor) fx.cursors.set(op.path, cursor);
    }
    for (const op of ops) {
      if (!mainVariant(op.body, op.resolve).properties?.cursor) continue;
      const body = { ...(example(op.body, op.resolve, fx, op.context, '') as object), limit: 1 };
      const r = await fetch(op.url({}), { method: 'POST', headers: { ...auth(keys.admin), 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const token = r.ok ? ((await r.json()) as Json).next?.[0]?.token : undefined;
      if (token) fx.cursors.set(op.context, token);
    }
    assert.ok([...fx.cursors.keys()].some((k) => k.startsWith('/')), 'no real REST cursor to tamper with');

    // Ops bodies carry the cursor as a field: give each list operation its real token's tampered forms.
    const requests: Req[] = [];
    for (const op of all) {
      requests.push(...requestsFor(op, fx, keys, !op.destructive));
      if (op.isOps && fx.cursors.has(op.context)) {
        const body = example(op.body, op.resolve, fx, op.context, '') as object;
        for (const t of badTokens(fx.cursors.get(op.context), fx.cursors.get([...fx.cursors.keys()].find((k) => k !== op.context && !k.startsWith('/'))!))) {
          requests.push({ route: op.route, what: `body cursor = ${short(t, 40)}`, method: 'POST', url: op.url({}), headers: { ...auth(keys.admin), 'content-type': 'application/json' }, body: JSON.stringify({ ...body, cursor: t }), success: op.success });
        }
      }
    }
    // Routes that do not exist.
    for (const path of ['/v1preview1/nope', '/v1preview1/', '/v1preview1/documents/x/y/z/w', '/ops/NoSuchOperation', '/ops/%ff%fe', '/%00', `/${'p'.repeat(10 * 1024)}`]) {
      requests.push({ route: `GET ${path.slice(0, 40)}`, what: 'unknown route', method: 'GET', url: `${q.origin}${path}`, headers: auth(keys.admin), success: [] });
      requests.push({ route: `POST ${path.slice(0, 40)}`, what: 'unknown route', method: 'POST', url: `${q.origin}${path}`, headers: { ...auth(keys.admin), 'content-type': 'application/json' }, body: '{}', success: [] });
    }
    // Last: destructive calls with real ids (refused variants first, then the real call, then again).
    const last: Req[] = [];
    const destructive = all.filter((o) => o.destructive);
    const rank = (o: Operation) => ['artifacts', 'properties', 'Remove', 'docsets/{docsetId}/documents', 'webhooks', 'projects', 'documents', 'Docset', 'docsets'].findIndex((w) => o.route.includes(w));
    destructive.sort((a, b) => rank(a) - rank(b));
    for (const op of destructive) {
      const reqs = requestsFor(op, fx, keys, true);
      last.push(...reqs, ...reqs.slice(-1));
    }

    const violations: Violation[] = [];
    const perRoute = new Map<string, number>();
    const statuses = new Map<string, number>();
    const finals: string[] = [];
    let sent = 0;
    let dead = false;
    const resets: string[] = [];
    const run = async (req: Req) => {
      let res = await send(req);
      sent++;
      // A route that refuses a form before reading all of it answers with `connection: close`; a
      // client still sending may then see a reset instead of the answer (a race). Once is noted; the
      // same request must then be answered.
      if ('error' in res && /EPIPE|ECONNRESET|other side closed/.test(res.error)) {
        resets.push(`${req.route} | ${req.what} | ${res.error}`);
        res = await send(req);
      }
      perRoute.set(req.route, (perRoute.get(req.route) ?? 0) + 1);
      if ('error' in res) {
        statuses.set('error', (statuses.get('error') ?? 0) + 1);
        violations.push({ route: req.route, what: req.what, status: 'no answer', excerpt: res.error });
        return;
      }
      statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
      if (req.what.startsWith('valid request') && last.includes(req)) finals.push(`${req.route} ${res.status}`);
      const why = judge(req, res.status, res.contentType, res.text);
      if (why) violations.push({ route: req.route, what: `${req.what} → ${why}`, status: res.status, excerpt: excerpt(res.text) });
    };
    const healthy = async (when: string) => {
      const r = await fetch(`${q.origin}/healthz`, { signal: AbortSignal.timeout(5000) }).catch((err: Error) => err);
      if (r instanceof Error || r.status !== 200) violations.push({ route: 'GET /healthz', what: when, status: r instanceof Error ? 'no answer' : r.status, excerpt: r instanceof Error ? r.message : '' });
      if (q.process.exitCode !== null) {
        violations.push({ route: '(process)', what: when, status: 'exited', excerpt: `exit code ${q.process.exitCode}\n${q.logs().slice(-3000)}` });
        dead = true;
      }
    };
    for (const phase of [requests, last]) {
      for (let i = 0; i < phase.length && !dead; i += BATCH) {
        await pool(phase.slice(i, i + BATCH), phase === last ? 1 : CONCURRENCY, run);
        await healthy(`after request ${sent}`);
      }
    }
    await healthy('at the end');

    const summary = [...statuses.entries()].sort().map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`hostile requests sent: ${sent} over ${perRoute.size} routes (${summary}); real cursors and tokens tampered with: ${[...fx.cursors.keys()].join(', ')}; destructive calls last: ${finals.join(', ')}`);
    if (resets.length) console.log(`connection resets (each answered when sent again):\n${resets.join('\n')}`);
    const thin = all.filter((o) => (perRoute.get(o.route) ?? 0) < 10).map((o) => o.route);
    assert.deepEqual(thin, [], 'operations with fewer than 10 hostile requests');
    assert.ok(sent >= MIN_REQUESTS, `only ${sent} requests sent (at least ${MIN_REQUESTS} expected)`);
    if (violations.length) {
      const lines = violations.map((v) => `- ${v.route} | ${v.what} | ${v.status} | ${v.excerpt.replace(/\s+/g, ' ')}`);
      assert.fail(`${violations.length} of ${sent} answers broke the contract:\n${lines.join('\n')}`);
    }
  });

  test('the server is still alive and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
    assert.equal(q.process.exitCode, null, 'the server process died');
    assert.equal((await fetch(`${q.origin}/healthz`)).status, 200);
    assert.equal(await q.stop(), 0, q.logs().slice(-3000));
  });
});
