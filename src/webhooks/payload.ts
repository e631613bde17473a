import type { Repos } from '../store/db/index.js';
import type { EventRecord } from '../store/db/events.js';
import type { DocumentRecord } from '../model/records.js';
import { toDocumentJson } from '../api/documents.js';
import { targetOfEvent } from '../domain/webhooks.js';
import { DOCUMENT_DELETED, VERSION_PUBLISHED } from '../model/events.js';

/** Bodies stay under this; a larger resource is sent as its ids and URLs only. */
export const MAX_BODY_BYTES = 64 * 1024;

type Payload = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `{id, url}` of a resource, or null without an id. */
const ref = (id: string | undefined, url: (id: string) => string) => (id === undefined ? null : { id, url: url(id) });

/**
 * The JSON body of an event: `{id, type, timestamp, workspace: {id}, data}`, `data` being the
 * resource with its absolute URLs. Documents appear as the REST API shows them when they still exist.
 */
export async function renderEvent(s: Repos, e: EventRecord, base: string): Promise<string> {
  const p = (e.payload ?? {}) as Payload;
  const urls = {
    document: (id: string) => `${base}/documents/${id}`,
    docset: (id: string) => `${base}/docsets/${id}`,
    project: (id: string) => `${base}/projects/${id}`,
  };
  const documentId = str(p.documentId);
  const doc: DocumentRecord | undefined = documentId && targetOfEvent(e.type) !== 'Project' ? await s.documents.get(e.workspaceId, documentId) : undefined;
  const minimalDocument = documentId === undefined ? null : { id: documentId, ...(str(p.name) ? { name: p.name } : {}), url: urls.document(documentId) };
  const docset = ref(str(p.docsetId), urls.docset);

  const build = (full: boolean): unknown => {
    const document = full && doc ? toDocumentJson(doc, base) : minimalDocument;
    switch (targetOfEvent(e.type)) {
      case 'Documents':
        // Documents.Delete: the document is gone; its id, name and former URL remain.
        return e.type === DOCUMENT_DELETED ? minimalDocument : (document ?? minimalDocument);
      case 'Docset': {
        const data: Payload = { document, docset };
        if (documentId && docset) data.dgmlUrl = `${docset.url}/documents/${documentId}/dgml`;
        return data;
      }
      case 'Project': {
        const projectId = str(p.projectId);
        const project = ref(projectId, urls.project);
        const version = p.version ?? null;
        if (e.type === VERSION_PUBLISHED) {
          return {
            project,
            docset,
            version,
            artifactCount: p.artifactCount ?? null,
            artifactsUrl: projectId && version !== null ? `${urls.project(projectId)}/artifacts/${String(version)}` : null,
          };
        }
        const artifactId = str(p.artifactId);
        const artifactUrl = projectId && artifactId && version !== null ? `${urls.project(projectId)}/artifacts/${String(version)}/${artifactId}` : null;
        return {
          project,
          docset,
          version,
          artifact: artifactId === undefined ? null : { id: artifactId, name: p.name ?? null, version, url: artifactUrl, downloadUrl: artifactUrl && `${artifactUrl}/content`, document: ref(documentId, urls.document) },
        };
      }
      default:
        return p;
    }
  };

  const envelope = (data: unknown) => JSON.stringify({ id: e.id, type: e.type, timestamp: new Date(e.createdAt).toISOString(), workspace: { id: e.workspaceId }, data });
  const body = envelope(build(true));
  return Buffer.byteLength(body) < MAX_BODY_BYTES ? body : envelope(build(false));
}

/** The body of a test ping. */
export function renderPing(id: string, workspaceId: string, webhookId: string, base: string, now: number): string {
  return JSON.stringify({ id, type: 'Webhook.Test', timestamp: new Date(now).toISOString(), workspace: { id: workspaceId }, data: { webhook: { id: webhookId, url: `${base}/webhooks/${webhookId}` } } });
}
