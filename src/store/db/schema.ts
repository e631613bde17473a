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
}

export interface DocumentMetadataTable {
  document_id: string;
  workspace_id: string;
  key: string;
  value: string;
  position: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  docsets: DocsetsTable;
  documents: DocumentsTable;
  document_metadata: DocumentMetadataTable;
  settings: SettingsTable;
}
