/**
 * Real resources of every kind in one workspace, made through the API (two documents processed in a
 * docset, one with metadata, a second docset, a project with published artifacts, a second project
 * with an artifact uploaded into `latest` right after it was created, a webhook with a delivery, an
 * upload session, a property), and the real value of each path parameter: what the generated-request
 * tests (test/hostile, test/security) put into URLs and bodies.
 */
import { assertJson, until, type Client } from './http.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export interface Fixtures {
  document: string;
  document2: string;
  docset: string;
  docset2: string;
  project: string;
  webhook: string;
  session: string;
  property: string;
  /** A value label found in the docset's documents (`GET /docsets/{id}/labels`), or FAKE_ID when none is. */
  label: string;
  catalog: string;
  delivery: string;
  artifact: string;
  version: string;
  /** A spare API key of the workspace (read:documents), made through the keys routes. */
  key: string;
  /** A project whose `latest` got an upload the moment it existed (version 0), and that upload. */
  freshProject: string;
  upload: string;
  /**
   * Text only this workspace's answers may contain: the document's metadata value, the webhook's
   * receiver URL and the uploaded artifact's name (the fields Document.metadata, Webhook.webhookUrl, Artifact.name).
   */
  markers: string[];
  /** Real REST cursors by path template, and ops tokens by operation id. */
  cursors: Map<string, string>;
}

export const FAKE_ID = 'zzzzzzzzzzzz';

/** The real value of a path parameter: by its name and the path segment before it. */
export function realParam(fx: Fixtures, path: string, name: string): string {
  const segs = path.split('/');
  const i = segs.indexOf(`{${name}}`);
  const prev = segs[i - 1];
  switch (name) {
    case 'docsetId':
      return fx.docset;
    case 'documentId':
      return fx.document;
    case 'projectId':
      return fx.project;
    case 'propertyId':
      return fx.property;
    case 'name':
      if (prev === 'labels') return fx.label;
      break;
    case 'sessionId':
      return fx.session;
    case 'deliveryId':
      return fx.delivery;
    case 'artifactId':
      return fx.artifact;
    case 'version':
      return fx.version;
    case 'pageNumber':
      return '1';
  }
  switch (prev) {
    case 'documents':
      return fx.document;
    case 'docsets':
      return fx.docset;
    case 'projects':
      return fx.project;
    case 'webhooks':
      return fx.webhook;
    case 'sample-catalog':
      return fx.catalog;
    case 'keys':
      return fx.key;
    default:
      return FAKE_ID;
  }
}

/** Makes the fixtures with `c` (an admin key); `prefix` names them. */
export async function createFixtures(c: Client, prefix: string): Promise<Fixtures> {
  const ds = await c.post('/docsets', { json: { name: `${prefix}-docset` } });
  assertJson(ds, 201);
  const ds2 = await c.post('/docsets', { json: { name: `${prefix}-docset-2` } });
  assertJson(ds2, 201);
  const markers = [`${prefix}-metadata-marker`, `http://127.0.0.1:9/hook/${prefix}-receiver`, `${prefix}-uploaded.json`];
  const hook = await c.post('/webhooks', { json: { target: 'Documents', url: markers[1], secret: 's3cr3t-bars' } });
  assertJson(hook, 201);
  const docs: string[] = [];
  for (const name of [`${prefix}-a.txt`, `${prefix}-b.txt`]) {
    const metadata: Record<string, string> = docs.length === 0 ? { metadata: JSON.stringify({ metadata: [{ key: 'marker', value: markers[0]! }] }) } : {};
    const up = await c.upload({ bytes: `A small text for ${name}.\n\nParty: Example Corp.\n`, name }, { 'docset.id': ds.json.id, ...metadata });
    assertJson(up, 201);
    docs.push(up.json.id);
  }
  for (const id of docs) {
    await until(`document ${id} processed`, async () => {
      const s = (await c.get(`/documents/${id}`)).json.status;
      return ['Ready', 'Error'].includes(s) ? s : undefined;
    });
  }
  const project = await c.post('/projects', { json: { name: `${prefix}-project`, type: 'TabularReport', 'docset.id': ds.json.id, items: [{ label: 'Party' }] } });
  assertJson(project, 201);
  // As the SDK does: create a project, upload into its `latest` at once (version 0; later versions carry it).
  const fresh = await c.post('/projects', { json: { name: `${prefix}-fresh-project`, type: 'Chat', docset: { id: ds2.json.id } } });
  assertJson(fresh, 201);
  const form = new FormData();
  form.append('document.id', docs[0]!);
  form.append('file', new Blob(['{"uploaded": true}']), markers[2]!);
  const uploaded = await c.post(`/projects/${fresh.json.id}/artifacts/latest/content`, { body: form });
  assertJson(uploaded, 201);
  const session = await c.post('/documents/uploads/session', { json: { fileName: `${prefix}-session.txt`, fileSize: 10 } });
  assertJson(session, 201);
  const spareKey = await c.post('/workspace/keys', { json: { name: `${prefix}-spare`, scopes: ['read:documents'] } });
  assertJson(spareKey, 201);
  const props = await c.get(`/docsets/${ds.json.id}/properties`);
  assertJson(props);
  const catalog = await c.get('/sample-catalog');
  assertJson(catalog);
  const firstOf = (json: Json) => (Object.values(json).find((v) => Array.isArray(v)) as Json[] | undefined)?.[0]?.id as string | undefined;
  // The project publishes once its documents are processed; artifacts make the artifact routes real.
  const artifacts = await until(
    'project artifacts',
    async () => {
      const r = await c.get(`/projects/${project.json.id}/artifacts`);
      return r.status === 200 && r.json.artifacts?.length ? r.json.artifacts : undefined;
    },
    60_000,
  ).catch(() => [] as Json[]);
  const labels = await c.get(`/docsets/${ds.json.id}/labels`);
  assertJson(labels);
  const deliveries = await until(
    'a webhook delivery',
    async () => {
      const r = await c.get(`/webhooks/${hook.json.id}/deliveries`);
      return r.json.deliveries?.length ? r.json.deliveries : undefined;
    },
    30_000,
  ).catch(() => [] as Json[]);

  return {
    document: docs[0]!,
    document2: docs[1]!,
    docset: ds.json.id,
    docset2: ds2.json.id,
    project: project.json.id,
    webhook: hook.json.id,
    session: session.json.sessionId,
    property: firstOf(props.json) ?? FAKE_ID,
    // A value's: only a value label becomes a property (a clause label is 422).
    label: (labels.json.labels.find((l: Json) => l.kind === 'value')?.name as string | undefined) ?? FAKE_ID,
    catalog: firstOf(catalog.json) ?? FAKE_ID,
    delivery: deliveries[0]?.id ?? FAKE_ID,
    artifact: artifacts[0]?.id ?? FAKE_ID,
    version: String(artifacts[0]?.version ?? 'latest'),
    key: spareKey.json.id,
    freshProject: fresh.json.id,
    upload: uploaded.json.id,
    markers,
    cursors: new Map(),
  };
}
