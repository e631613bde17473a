import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import querystring from 'fast-querystring';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, HttpDeps } from './context.js';
import { authHook } from './auth.js';
import { RateLimiter } from './rate-limit.js';
import { cors, docsCsp, securityHeaders } from './security.js';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, sendProblem } from './problems.js';
import { HttpMetrics } from './metrics.js';
import { ProblemSchema } from '../api/common.js';
import { DocumentSchema } from '../api/documents.js';
import { DocsetSchema } from '../api/docsets.js';
import { documentRoutes } from './rest/documents.js';
import { documentContentRoutes } from './rest/document-content.js';
import { uploadSessionRoutes } from './rest/upload-sessions.js';
import { pageRoutes } from './rest/pages.js';
import { documentStructureRoutes } from './rest/document-structure.js';
import { propertyRoutes } from './rest/properties.js';
import { labelRoutes } from './rest/labels.js';
import { PropertySchema, PropertyValueSchema } from '../api/properties.js';
import { SampleCatalogEntrySchema, SampleSchema } from '../api/samples.js';
import { sampleRoutes } from './rest/samples.js';
import { metadataRoutes } from './rest/metadata.js';
import { projectRoutes } from './rest/projects.js';
import { artifactRoutes } from './rest/artifacts.js';
import { ArtifactSchema, ProjectSchema } from '../api/projects.js';
import { docsetRoutes } from './rest/docsets.js';
import { docsetDocumentRoutes } from './rest/docset-documents.js';
import { workspaceRoutes } from './rest/workspace.js';
import { keyRoutes } from './rest/keys.js';
import { drainRefusedBody } from './unread-body.js';
import { FORM_LIMITS } from './form-limits.js';
import { ApiKeySchema } from '../api/keys.js';
import { webhookRoutes } from './rest/webhooks.js';
import { WebhookSchema } from '../api/webhooks.js';
import { systemRoutes } from './system.js';
import { consoleRoutes } from './console.js';
import { opsRoutes } from './ops/index.js';
import { sharedSerializers } from './serializers.js';
import { SCOPES } from '../model/scopes.js';
import { invalid } from '../domain/errors.js';
import { endChanges, trackChanges, type ChangeScope } from '../store/db/changes.js';
import { QUIRE_VERSION } from '../runtime/version.js';

const JSON_BODY_LIMIT = 1024 * 1024;

// ajv-formats is CommonJS whose default export TypeScript sees as a namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function newAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true;
  return false;
}

/** No parameter of this API is a list: when a client repeats one, its last value counts. */
function lastValueWins(qs: string): Record<string, unknown> {
  const parsed = querystring.parse(qs) as Record<string, unknown>;
  for (const [k, v] of Object.entries(parsed)) if (Array.isArray(v)) parsed[k] = v[v.length - 1];
  return parsed;
}

export async function buildServer(baseDeps: HttpDeps, logger: FastifyServerOptions['loggerInstance']): Promise<App> {
  const perMinute = baseDeps.config.http.rateLimitPerMinute;
  const deps: HttpDeps = { ...baseDeps, rateLimiter: perMinute > 0 ? new RateLimiter(perMinute) : undefined };
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: lastValueWins },
    // A response schema's anyOf (nullable fields, unions) is serialized with an Ajv validator, which
    // fast-json-stringify otherwise compiles on the first response that reaches it: 100–300 ms of the
    // first uploads' and first lists' time on a fresh server. Compiled at start instead.
    serializerOpts: { compileValidators: true },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // Query strings, params and headers arrive as text and are coerced to their types; JSON bodies are
  // taken as sent (a number where a string belongs is an error, not a conversion).
  const bodyAjv = newAjv(false);
  const textAjv = newAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  // PostgreSQL text cannot hold NUL; refuse it in every parameter and JSON string up front.
  // Hooks on every request take callbacks, not async functions: no promise per hook per request.
  app.addHook('preValidation', (request, _reply, done) => {
    if (hasNul(request.query) || hasNul(request.params) || hasNul(request.body)) {
      return done(invalid('NUL characters (\\u0000) are not allowed in parameters or bodies.'));
    }
    done();
  });

  securityHeaders(app);
  cors(app, deps.config.http.corsOrigins);
  app.decorateRequest('principal', null);
  // A request that may change state runs as a unit of work: the store notes what it commits, so a
  // failure answered afterwards carries `x-should-retry: false` (problems.ts). From preHandler on, after
  // the body is read, so that the handler and everything it awaits run in it.
  app.decorateRequest('changes', null);
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
    const scope: ChangeScope = { committed: false };
    request.changes = scope;
    // 'close' comes once the response is sent, or the client went away: the unit of work ends.
    reply.raw.once('close', endChanges);
    trackChanges(scope, done);
  });
  app.setErrorHandler(errorHandler);
  app.addHook('onSend', drainRefusedBody);
  app.setNotFoundHandler((request, reply) => sendProblem(reply, 404, `There is no route ${request.method} ${request.url.split('?')[0]}.`));

  // Clients send `Content-Type: application/json` on every request, bodiless ones too.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    defaultJson(request, body as string, (err, value) => {
      if (err) return done(Object.assign(new Error('The request body is not valid JSON.'), { statusCode: 400 }), undefined);
      done(null, value);
    });
  });

  const metrics = new HttpMetrics();
  app.addHook('onResponse', (request, reply, done) => {
    metrics.record(request, reply);
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime }, 'request');
    }
    done();
  });

  app.addSchema(ProblemSchema);
  app.addSchema(DocumentSchema);
  app.addSchema(DocsetSchema);
  app.addSchema(PropertySchema);
  app.addSchema(PropertyValueSchema);
  app.addSchema(SampleCatalogEntrySchema);
  app.addSchema(SampleSchema);
  app.addSchema(WebhookSchema);
  app.addSchema(ProjectSchema);
  app.addSchema(ApiKeySchema);
  app.addSchema(ArtifactSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: QUIRE_VERSION,
        description: [
          'Self-hostable document processing speaking the Docugami `/v1preview1` API.',
          `Authenticate with \`Authorization: Bearer <key>\`. Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}; \`admin\` grants all.`,
          'Errors are RFC 9457 Problem JSON (`application/problem+json`). Lists use keyset pagination: follow `next`.',
        ].join('\n\n'),
      },
      servers: [{ url: deps.config.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: docsCsp(), uiConfig: { deepLinking: true, url: '/openapi.json' } });

  await app.register(async (v1) => {
    const api = v1 as unknown as App;
    await api.register(multipart, {
      limits: { ...FORM_LIMITS, fileSize: deps.config.maxUploadBytes },
      throwFileSizeLimit: true,
    });
    api.addHook('onRequest', authHook(deps.workspaces, deps.rateLimiter));
    documentRoutes(api, deps);
    documentContentRoutes(api, deps);
    uploadSessionRoutes(api, deps);
    pageRoutes(api, deps);
    documentStructureRoutes(api, deps);
    propertyRoutes(api, deps);
    labelRoutes(api, deps);
    sampleRoutes(api, deps);
    metadataRoutes(api, deps);
    docsetRoutes(api, deps);
    docsetDocumentRoutes(api, deps);
    workspaceRoutes(api, deps);
    keyRoutes(api, deps);
    webhookRoutes(api, deps);
    projectRoutes(api, deps);
    artifactRoutes(api, deps);
  }, { prefix: '/v1preview1' });

  await app.register(async (ops) => opsRoutes(ops as unknown as App, deps), { prefix: '/ops' });
  systemRoutes(app, deps, metrics);
  consoleRoutes(app);
  return app;
}
