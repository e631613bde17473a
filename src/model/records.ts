/** The records the domain works with, independent of how they are stored or sent. */
import type { DocumentStatus, SampleStatus } from './lifecycle.js';
import type { WebhookTarget } from './events.js';

export interface WorkspaceRecord {
  id: string;
  name: string;
  type: string;
  createdAt: number;
  expiresAt: number | null;
  pageQuotaMax: number;
  pageQuotaPerDocument: number;
  userQuotaMax: number;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  keyPrefix: string;
  scopes: string[];
  createdAt: number;
  revokedAt: number | null;
}

export interface DocsetRecord {
  id: string;
  workspaceId: string;
  name: string;
  isSample: boolean;
  documentCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface DocumentRecord {
  id: string;
  workspaceId: string;
  docsetId: string | null;
  docsetCandidates: string[];
  name: string;
  format: string;
  contentType: string;
  size: number;
  sha256: string;
  blobKey: string;
  status: DocumentStatus;
  pageCount: number | null;
  isSample: boolean;
  error: { title: string; detail: string } | null;
  createdAt: number;
  updatedAt: number;
  processedAt: number | null;
  /** While ingestion is in flight: its stage and pages; absent or null otherwise. */
  progress?: DocumentProgress | null;
  /** The stored PDF rendition of a non-PDF original, once ingested. */
  renditionBlobKey?: string | null;
  /** The stored structure model (source of DGML, text, Markdown), once processed. */
  structureBlobKey?: string | null;
  /** How ingestion went, once it has: which pagination path, the detected format, how long it took. */
  processing?: ProcessingDetails | null;
  /** An upload that named several docsets: every candidate's score and the docset chosen. */
  classification?: { candidates: { docset: { id: string }; score: number; basis: 'documents' | 'name' }[]; chosen: { id: string } } | null;
  /** Its metadata entries in order (absent: none). */
  metadata?: MetadataEntry[];
}

/** Read documents record their pagination; an expanded ZIP records its members and skipped entries. */
export interface ProcessingDetails {
  format: string;
  pagination?: 'pdf' | 'libreoffice' | 'text-layout';
  durationMs?: number;
  /** The `Processing` stage: pages OCRed and time spent per step. */
  analysis?: { ocrPages: number[]; ocrFailedPages?: number[]; ocrTimedOutPages?: number[]; textMs: number; ocrMs: number; layoutMs: number; entitiesMs: number; storeMs: number };
  members?: string[];
  skipped?: { name: string; reason: string }[];
}

export interface DocumentProgress {
  stage: string;
  pagesDone: number;
  pagesTotal: number | null;
}

export interface MetadataEntry {
  key: string;
  value: string;
}

export interface DocumentFilter {
  name?: string;
  prefix?: string;
  docsetId?: string;
  status?: DocumentStatus;
  minPages?: number;
  maxPages?: number;
  minSize?: number;
  maxSize?: number;
  samples?: boolean;
  metadata?: Record<string, string>;
}

export interface DocsetFilter {
  name?: string;
  minDocuments?: number;
  maxDocuments?: number;
  samples?: boolean;
}

/** Keyset page request: items strictly after `after` in id order. */
export interface PageRequest {
  after?: string;
  limit: number;
}

export interface Page<T> {
  items: T[];
  /** The last item's id when more items follow, else null. */
  nextAfter: string | null;
}

export interface PropertyRecord {
  id: string;
  workspaceId: string;
  docsetId: string;
  label: string;
  /** The DGML element name of the label, unique in the docset. */
  labelId: string;
  createdAt: number;
  updatedAt: number;
}

/** What extraction found for one property in one document, beyond the value itself. */
export interface Extraction {
  confidence: number;
  location: { page: number; boundingBox: { left: number; top: number; width: number; height: number } } | null;
  candidates: { value: string; confidence: number; location: Extraction['location'] }[];
  /** Where the value sits in the document's structure, for tagging it in DGML (opaque here). */
  anchor: unknown;
  /** How it was found, for learning across the docset (opaque here). */
  evidence: unknown;
}

export interface PropertyValueRecord {
  propertyId: string;
  documentId: string;
  docsetId: string;
  extractedValue: string | null;
  extraction: Extraction | null;
  extractedAt: number | null;
  manualValue: string | null;
  manualAt: number | null;
  /** Where the manual value sits in the document (opaque here), for learning. */
  manualEvidence: unknown;
}

export interface ProjectItem {
  propertyId: string;
  /** The property's current label. */
  label: string;
}

export interface ProjectRecord {
  id: string;
  workspaceId: string;
  docsetId: string;
  name: string;
  /** One of PROJECT_TYPES (src/model/projects.ts). */
  type: string;
  autoConfirmDocuments: boolean;
  /** The properties the project reports, in order (deleted properties drop out). */
  items: ProjectItem[];
  /** The newest version: 0 (uploads only) until the first is published, then 1, 2, … */
  latestVersion: number;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectFilter {
  name?: string;
  docsetId?: string;
  type?: string;
}

export interface ArtifactRecord {
  id: string;
  workspaceId: string;
  projectId: string;
  version: number;
  name: string;
  documentId: string | null;
  size: number;
  contentType: string;
  sha256: string;
  blobKey: string;
  /** Generated artifacts are read-only; uploaded ones are not. */
  isReadOnly: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface ArtifactFilter {
  name?: string;
  documentId?: string;
  minSize?: number;
  maxSize?: number;
  isReadOnly?: boolean;
}

export interface SampleRecord {
  id: string;
  workspaceId: string;
  /** The catalogue entry it was created from. */
  catalogId: string;
  /** That entry's version when it was created. */
  catalogVersion: string;
  /** Its docset's name when created. */
  name: string;
  docsetId: string;
  suggestedProperties: string[];
  /** `InProgress` while any of its documents is processing, then `Error` if any failed, else `Ready`. */
  status: SampleStatus;
  /** Its documents that still exist. */
  documentCount: number;
  createdAt: number;
  updatedAt: number;
}

export interface SampleFilter {
  name?: string;
  status?: SampleStatus;
}

/** A chunked (resumable) upload: validated up front, filled chunk by chunk, finalized once. */
export interface UploadSessionRecord {
  id: string;
  workspaceId: string;
  fileName: string;
  fileSize: number;
  chunkSize: number;
  docsetIds: string[];
  /** `{"metadata": [...]}` as validated at creation, or null. */
  metadataJson: string | null;
  /** The document the session became, once finalized. */
  documentId: string | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

export interface UploadChunkRecord {
  sessionId: string;
  byteOffset: number;
  size: number;
  blobKey: string;
  sha256: string;
  receivedAt: number;
}

export interface WebhookRecord {
  id: string;
  workspaceId: string;
  target: WebhookTarget;
  targetId: string | null;
  url: string;
  events: string[];
  secret: string | null;
  createdAt: number;
  disabledAt: number | null;
  disabledReason: string | null;
  failingSince: number | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextRetryAt: number | null;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

export interface DeliveryWithAttempts extends DeliveryRecord {
  attemptLog: DeliveryAttempt[];
}

export interface WebhookFilter {
  /** Only these targets (those the key may read). */
  targets: WebhookTarget[];
  targetId?: string;
}
