import type { App, HttpDeps } from '../context.js';
import { principalOf } from '../context.js';
import { op } from '../../api/common.js';
import { PropertySchema, toPropertyJson } from '../../api/properties.js';
import { DocsetLabelParams, DocsetLabelsParams, FoundLabelListSchema, ListLabelsQuery, toFoundLabelJson } from '../../api/labels.js';

const whatLabelsAre =
  'Labels are the names Quire gives values by the role their context makes clear, with no property defined (`kind: "value"`: `<docset:TenantName>`, `<docset:CurePeriod>` in DGML), and clauses, lists, tables and sections by their headings or what they are about (`kind: "clause"`: `<docset:SecurityDeposit>`, `<docset:GoverningLaw-section>`): the docset\'s schema as its documents show it.';

/** Quire extensions: the labels found in a docset, and turning one into a property. */
export function labelRoutes(app: App, deps: HttpDeps) {
  const base = deps.config.apiBase;

  const list = op({
    id: 'listDocsetLabels',
    summary: "List the labels found in a docset's documents (extension)",
    tag: 'Properties',
    scope: 'read:documents',
    errors: [400, 404],
    description: [
      whatLabelsAre,
      'Each name with its kind, how many of the docset\'s Ready documents have it, how many values or clauses it names, an example (a value, or the opening of a clause) and its document, and the docset property a value label is, if any; most documents first, then by name, a value before a clause of the same name. Keyset pagination: follow `next`.',
      'Each document\'s labels are summarised once, when it becomes Ready, so a list reads no document. Documents made Ready before Quire summarised labels are summarised on demand, a bounded number per call: `pendingDocuments` says how many are left (0 once every Ready document counts; call again until it is).',
    ].join('\n\n'),
  });
  app.get(
    '/docsets/:docsetId/labels',
    { config: list.config, schema: { ...list.schema, params: DocsetLabelsParams, querystring: ListLabelsQuery, response: { 200: FoundLabelListSchema, ...list.problemResponses } } },
    async (request) => {
      const { workspace } = principalOf(request);
      const { docsetId } = request.params;
      const route = `docsets/${docsetId}/labels`;
      const { filter, page } = deps.cursors.resolve<Record<string, never>>(request.query, route, workspace.id, () => ({}));
      const result = await deps.labels.list(workspace.id, docsetId, page);
      return {
        labels: result.items.map((l) => toFoundLabelJson(l, docsetId, base)),
        next: deps.cursors.nextUrl({ base, path: `/${route}`, route, workspaceId: workspace.id, filter, filterQuery: {}, limit: page.limit, nextAfter: result.nextAfter }),
        pendingDocuments: result.pendingDocuments,
      };
    },
  );

  const toProperty = op({
    id: 'createPropertyFromLabel',
    summary: 'Turn a found label into a docset property (extension)',
    tag: 'Properties',
    scope: 'write:documents',
    errors: [400, 404, 422],
    description: [
      whatLabelsAre,
      'Creates the docset property labelled with the name as a person writes it (`TenantName` -> "Tenant Name", `SARExpirationDate` -> "SAR Expiration Date", `_2020Rent` -> "2020 Rent"): 201 with the property; its values are then extracted from every Ready document (a job), as for `POST …/properties`. When the docset already has the property (its label id is the name, or the humanised name\'s), 200 with it and nothing changes. 404 when no Ready document of the docset has the label; 422 when the docset has it only as a clause\'s name (`kind: "clause"`): a property\'s values are values its documents state, and a whole clause is none.',
    ].join('\n\n'),
  });
  app.post(
    '/docsets/:docsetId/labels/:name/property',
    {
      config: toProperty.config,
      schema: { ...toProperty.schema, params: DocsetLabelParams, response: { 200: PropertySchema, 201: PropertySchema, ...toProperty.problemResponses } },
    },
    async (request, reply) => {
      const { workspace } = principalOf(request);
      const { property, created } = await deps.labels.toProperty(workspace.id, request.params.docsetId, request.params.name);
      return reply.code(created ? 201 : 200).send(toPropertyJson(property, base));
    },
  );
}
