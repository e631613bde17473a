// The API's shapes, as src/api/ declares them (TypeBox schemas; the OpenAPI document is built from
// the same): the console imports their types only, and talks to Quire over HTTP.
import type { Static } from 'typebox';
import type { DocumentJson, DocumentStatusSchema } from '../../../src/api/documents.js';
import type { DocsetJson } from '../../../src/api/docsets.js';
import type { ApiKeySchema } from '../../../src/api/keys.js';
import type { PageSchema } from '../../../src/api/pages.js';
import type { ArtifactSchema, ProjectSchema } from '../../../src/api/projects.js';
import type { PropertySchema, PropertyValueSchema } from '../../../src/api/properties.js';
import type { UploadSessionCreatedSchema, UploadSessionStateJson } from '../../../src/api/upload-sessions.js';
import type { DeliverySchema, WebhookJson } from '../../../src/api/webhooks.js';
import type { WorkspaceSchema } from '../../../src/api/workspace.js';
import type { SampleCatalogEntryJson, SampleJson } from '../../../src/api/samples.js';
import { DOCUMENT_STATUSES, SETTLED_DOCUMENT_STATUSES } from '../../../src/api/statuses.js';

export type DocStatus = Static<typeof DocumentStatusSchema>;
/** In the order a document goes through them (the list's order in the Documents filter). */
export const STATUSES: readonly DocStatus[] = DOCUMENT_STATUSES;
const SETTLED: ReadonlySet<DocStatus> = new Set(SETTLED_DOCUMENT_STATUSES);
/** Still being ingested or processed: its status, progress, pages and text will change (worth polling). */
export const inFlight = (status: DocStatus) => !SETTLED.has(status);

export type Workspace = Static<typeof WorkspaceSchema>;
export type Docset = DocsetJson;
export type Document = DocumentJson;
export type Property = Static<typeof PropertySchema>;
export type PropertyValue = Static<typeof PropertyValueSchema>;
export type Location = NonNullable<PropertyValue['location']>;
export type Box = Location['boundingBox'];
export type Page = Static<typeof PageSchema>;
export type Project = Static<typeof ProjectSchema>;
export type Artifact = Static<typeof ArtifactSchema>;
/** `url` is the webhook's own resource URL; `webhookUrl` the receiver its deliveries are POSTed to. */
export type Webhook = WebhookJson;
export type Delivery = Static<typeof DeliverySchema>;
export type SessionCreated = Static<typeof UploadSessionCreatedSchema>;
export type SessionState = UploadSessionStateJson;
export type ApiKey = Static<typeof ApiKeySchema>;
export type SampleCatalogEntry = SampleCatalogEntryJson;
export type Sample = SampleJson;
