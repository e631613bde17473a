import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { IdParams, op } from '../../api/common.js';
import {
  CreateSampleBody,
  ListSampleCatalogQuery,
  ListSamplesQuery,
  SampleCatalogListSchema,
  SampleListSchema,
  catalogFilterFromQuery,
  catalogFilterToQuery,
  sampleFilterFromQuery,
  sampleFilterToQuery,
  toCatalogEntryJson,
  toSampleJson,
} from '../../api/samples.js';
import type { CatalogFilter } from '../../domain/samples.js';
import type { SampleFilter } from '../../model/records.js';
import type { SampleSet } from '../../samples/index.js';

export function sampleRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;
  const entryJson = (set: SampleSet) => toCatalogEntryJson(set, deps.samples.documentCountOf(set), base);

  const listCatalog = op({ id: 'listSampleCatalog', summary: 'List the sample catalog', tag: 'Samples', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/sample-catalog',
    {
      config: listCatalog.config,
      schema: { ...listCatalog.schema, querystring: ListSampleCatalogQuery, response: { 200: SampleCatalogListSchema, ...listCatalog.problemResponses } },
    },
    async (request) => {
      const { workspace } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<CatalogFilter>(request.query, 'sample-catalog', workspace.id, () => catalogFilterFromQuery(request.query));
      const result = deps.samples.listCatalog(filter, page);
      return {
        samples: result.items.map(entryJson),
        next: deps.cursors.nextUrl({
          base,
          path: '/sample-catalog',
          route: 'sample-catalog',
          workspaceId: workspace.id,
          filter,
          filterQuery: catalogFilterToQuery(filter),
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const getEntry = op({ id: 'getSampleCatalogEntry', summary: 'Get a sample catalog entry', tag: 'Samples', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/sample-catalog/:id',
    { config: getEntry.config, schema: { ...getEntry.schema, params: IdParams, response: { 200: { $ref: 'SampleCatalogEntry' }, ...getEntry.problemResponses } } },
    async (request) => entryJson(deps.samples.getCatalogEntry(request.params.id)),
  );

  const list = op({ id: 'listSamples', summary: 'List samples', tag: 'Samples', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/samples',
    { config: list.config, schema: { ...list.schema, querystring: ListSamplesQuery, response: { 200: SampleListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { filter, page } = deps.cursors.resolve<SampleFilter>(request.query, 'samples', workspace.id, () => sampleFilterFromQuery(request.query));
      const result = await deps.samples.list(workspace.id, filter, page);
      return {
        samples: result.items.map((s) => toSampleJson(s, base)),
        next: deps.cursors.nextUrl({
          base,
          path: '/samples',
          route: 'samples',
          workspaceId: workspace.id,
          filter,
          filterQuery: sampleFilterToQuery(filter),
          limit: page.limit,
          nextAfter: result.nextAfter,
        }),
      };
    },
  );

  const create = op({
    id: 'createSample',
    summary: 'Create a sample from the catalog',
    tag: 'Samples',
    scope: 'write:documents',
    errors: [400, 404],
    description:
      'Creates a docset named after the catalog entry (numbered when the name is taken) with the generated documents, all with ' +
      '`isSample: true` (lists show them with `samples=true`), and queues their processing. Answers the list of samples created.',
  });
  app.post(
    '/samples',
    { config: create.config, schema: { ...create.schema, body: CreateSampleBody, response: { 201: SampleListSchema, ...create.problemResponses } } },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const sample = await deps.samples.create(workspace.id, request.body.id);
      return reply.code(201).send({ samples: [toSampleJson(sample, base)], next: null });
    },
  );

  const get = op({ id: 'getSample', summary: 'Get a sample', tag: 'Samples', scope: 'read:documents', errors: [400, 404] });
  app.get(
    '/samples/:id',
    { config: get.config, schema: { ...get.schema, params: IdParams, response: { 200: { $ref: 'Sample' }, ...get.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      return toSampleJson(await deps.samples.get(workspace.id, request.params.id), base);
    },
  );
}
