/** Event names: the events the domain records (the `events` table) and webhooks deliver (seed section 6). */

export const DOCUMENT_CREATED = 'Documents.Create';
export const DOCUMENT_DELETED = 'Documents.Delete';

/** Events recorded when a document joins or leaves a docset (webhooks deliver them). */
export const DOCUMENT_ADDED = 'Docset.Document.Add';
export const DOCUMENT_REMOVED = 'Docset.Document.Remove';

/** Recorded when a document's DGML changes: after ingestion, and when its property values change. */
export const DGML_EVENT = 'Docset.Document.Dgml';

/** payload `{projectId, docsetId, version, artifactId, name, documentId}` */
export const ARTIFACT_CREATED = 'Project.Artifacts.Create';

/** payload as ARTIFACT_CREATED: an artifact regenerated with different content in a new version */
export const ARTIFACT_MODIFIED = 'Project.Artifacts.Modify';

/** payload as ARTIFACT_CREATED (the artifact of the previous version, or the deleted upload) */
export const ARTIFACT_DELETED = 'Project.Artifacts.Delete';

/** payload `{projectId, docsetId, version, artifactCount}` */
export const VERSION_PUBLISHED = 'Project.Artifacts.Version';

/** What a webhook listens to: a workspace's documents, one docset, one project. */
export const WEBHOOK_TARGETS = ['Documents', 'Docset', 'Project'] as const;
export type WebhookTarget = (typeof WEBHOOK_TARGETS)[number];

/** The events each target hears (seed section 6). */
export const EVENTS_BY_TARGET: Record<WebhookTarget, readonly string[]> = {
  Documents: [DOCUMENT_CREATED, DOCUMENT_DELETED],
  Docset: [DOCUMENT_ADDED, DOCUMENT_REMOVED, DGML_EVENT],
  Project: [ARTIFACT_CREATED, ARTIFACT_MODIFIED, ARTIFACT_DELETED, VERSION_PUBLISHED],
};
