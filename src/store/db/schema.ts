/** Row shapes of every table, as Kysely sees them. Timestamps are epoch milliseconds. */
export interface WorkspacesTable {
  id: string;
  name: string;
  type: string;
  created_at: number;
  expires_at: number | null;
  page_quota_max: number;
  page_quota_per_document: number;
  user_quota_max: number;
}

export interface WorkspaceUsageTable {
  workspace_id: string;
  stored_bytes: number;
}

/** A page image kept in storage, for the byte bound of their cache (src/domain/pages.ts). */
export interface PageImagesTable {
  key: string;
  document_id: string;
  bytes: number;
  used_at: number;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
}

export interface DocsetsTable {
  id: string;
  workspace_id: string;
  name: string;
  is_sample: number;
  document_count: number;
  created_at: number;
  updated_at: number;
  /** Partition key of the id (src/model/partition.ts); null only in rows no insert has set it for. */
  pkey: number | null;
}

export interface DocumentsTable {
  id: string;
  workspace_id: string;
  docset_id: string | null;
  /** `a|b|c` when the upload asked for classification into one of several docsets. */
  docset_candidates: string | null;
  name: string;
  format: string;
  content_type: string;
  size: number;
  sha256: string;
  blob_key: string;
  status: string;
  page_count: number | null;
  is_sample: number;
  error_title: string | null;
  error_detail: string | null;
  created_at: number;
  updated_at: number;
  processed_at: number | null;
  /** JSON `{stage, pagesDone, pagesTotal}` while ingestion is in flight, else null. */
  progress: string | null;
  /** JSON processing details (`{pagination, format, durationMs}`). */
  processing: string | null;
  /** The PDF rendition of a non-PDF original (null for PDFs and before ingestion). */
  rendition_blob_key: string | null;
  /** The gzipped JSON structure model, once the `Processing` stage produced it. */
  structure_blob_key: string | null;
  /** JSON `{candidates, chosen}`: how an upload naming several docsets was classified. */
  classification: string | null;
  /** Partition key of the id (src/model/partition.ts); null only in rows no insert has set it for. */
  pkey: number | null;
  /** JSON `[{key, value}]`, the same entries as its `document_metadata` rows, written with them; null: none. */
  metadata: string | null;
}

export interface JobsTable {
  id: string;
  queue: string;
  workspace_id: string;
  /** JSON. */
  payload: string;
  /** queued | active | completed | failed */
  state: string;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface EventsTable {
  id: string;
  workspace_id: string;
  /** `Documents.Create`, `Documents.Delete`, … */
  type: string;
  /** JSON. */
  payload: string;
  created_at: number;
  /** 1 once the webhook fan-out took the event (migration 0009; inserts leave the default 0). */
  webhooks_done?: number;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  target: string;
  target_id: string | null;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** Sealed (src/runtime/secret-box.ts) when `secret_key_id` is set; plain in rows older than migration 0017 until sealed. */
  secret: string | null;
  secret_key_id: string | null;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  failing_since: number | null;
  scheduled: number;
  gen: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  body: string;
  /** pending | delivered | failed */
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  webhook_id: string;
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_retry_at: number | null;
}

export interface DocumentPagesTable {
  document_id: string;
  number: number;
  width: number;
  height: number;
}

export interface DocumentMetadataTable {
  document_id: string;
  workspace_id: string;
  key: string;
  value: string;
  position: number;
}

export interface UploadSessionsTable {
  id: string;
  workspace_id: string;
  file_name: string;
  file_size: number;
  chunk_size: number;
  /** `a|b|c`, or null. */
  docset_ids: string | null;
  /** JSON `{"metadata": [...]}`, or null. */
  metadata: string | null;
  document_id: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export interface UploadChunksTable {
  session_id: string;
  byte_offset: number;
  size: number;
  blob_key: string;
  sha256: string;
  received_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface PropertiesTable {
  id: string;
  workspace_id: string;
  docset_id: string;
  label: string;
  label_id: string;
  created_at: number;
  updated_at: number;
}

export interface PropertyValuesTable {
  property_id: string;
  document_id: string;
  workspace_id: string;
  docset_id: string;
  extracted_value: string | null;
  /** JSON: confidence, location, candidates, anchor, evidence. */
  extraction: string | null;
  extracted_at: number | null;
  manual_value: string | null;
  manual_at: number | null;
  manual_evidence: string | null;
}

export interface SamplesTable {
  id: string;
  workspace_id: string;
  catalog_id: string;
  name: string;
  docset_id: string;
  /** JSON array of property labels. */
  suggested_properties: string;
  created_at: number;
  updated_at: number;
  /** The version of the catalogue entry it was made from; null only before migration 0013 backfilled it. */
  catalog_version: string | null;
}

export interface SampleDocumentsTable {
  sample_id: string;
  document_id: string;
}

/** Classification statistics of one docset (migration 0006); weights are fixed-point integers. */
export interface DocsetClassStatsTable {
  docset_id: string;
  workspace_id: string;
  documents: number;
  norm_sq: number;
}

export interface DocsetClassTermsTable {
  docset_id: string;
  term: string;
  workspace_id: string;
  weight_sum: number;
  documents: number;
}

export interface DocumentClassTermsTable {
  document_id: string;
  term: string;
  workspace_id: string;
  docset_id: string | null;
  weight: number;
}

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  docset_id: string;
  name: string;
  type: string;
  auto_confirm: number;
  /** JSON array of property ids. */
  items: string;
  latest_version: number;
  pkey: number;
  dirty_at: number | null;
  changed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProjectDocumentsTable {
  project_id: string;
  document_id: string;
}

export interface ProjectVersionsTable {
  project_id: string;
  version: number;
  inputs_hash: string;
  input_hashes: string;
  document_count: number;
  created_at: number;
}

export interface ArtifactsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  version: number;
  name: string;
  document_id: string | null;
  size: number;
  content_type: string;
  sha256: string;
  blob_key: string;
  is_read_only: number;
  pkey: number;
  created_at: number;
  updated_at: number;
}

/** A label found in a document's structure (`docset:{name}`, no property defined): one row per name. */
export interface SemanticLabelsTable {
  document_id: string;
  workspace_id: string;
  /** What the name names: 'value' or 'clause' (LabelKind). */
  kind: string;
  name: string;
  /** The text of its first span in the document. */
  example: string;
  occurrences: number;
}

/** That a document's labels were summarised, and of which processing (its `processed_at` then). */
export interface SemanticLabelScansTable {
  document_id: string;
  workspace_id: string;
  processed_at: number;
  label_count: number;
  scanned_at: number;
}

/** DGML, text or Markdown written from a document's structure, kept as a blob. */
export interface StructureFilesTable {
  document_id: string;
  /** 'dgml', 'text' or 'markdown' (StructureFileFormat). */
  format: string;
  workspace_id: string;
  /** SHA-256 of what the file was written from: a row whose inputs are not the document's now is stale. */
  inputs: string;
  blob_key: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  size: number;
  written_at: number;
}

export interface Database {
  structure_files: StructureFilesTable;
  semantic_labels: SemanticLabelsTable;
  semantic_label_scans: SemanticLabelScansTable;
  projects: ProjectsTable;
  project_documents: ProjectDocumentsTable;
  project_versions: ProjectVersionsTable;
  artifacts: ArtifactsTable;
  docset_class_stats: DocsetClassStatsTable;
  docset_class_terms: DocsetClassTermsTable;
  document_class_terms: DocumentClassTermsTable;
  samples: SamplesTable;
  sample_documents: SampleDocumentsTable;
  properties: PropertiesTable;
  property_values: PropertyValuesTable;
  workspaces: WorkspacesTable;
  workspace_usage: WorkspaceUsageTable;
  page_images: PageImagesTable;
  api_keys: ApiKeysTable;
  docsets: DocsetsTable;
  documents: DocumentsTable;
  document_metadata: DocumentMetadataTable;
  settings: SettingsTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
  jobs: JobsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  document_pages: DocumentPagesTable;
}
