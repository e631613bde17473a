export type DocStatus = 'New' | 'Ingesting' | 'Ingested' | 'Processing' | 'Ready' | 'Error' | 'OverQuota';
export const STATUSES: DocStatus[] = ['New', 'Ingesting', 'Ingested', 'Processing', 'Ready', 'Error', 'OverQuota'];

export interface Ref { id: string; url: string }
export interface Box { left: number; top: number; width: number; height: number }
export interface Location { page: number; boundingBox: Box }

export interface Workspace {
  id: string;
  name: string;
  type: string;
  expired: boolean;
  quota: { page: { max: number; used: number; maxPerDocument: number }; user: { max: number; used: number } };
}

export interface Docset { id: string; name: string; documents?: { count?: number; url?: string }; [k: string]: unknown }

export interface Document {
  id: string;
  name: string;
  status: DocStatus;
  size: number;
  pageCount?: number;
  createdAt?: string;
  docset?: Ref & { dgmlUrl: string };
  error?: { title: string; detail: string };
  progress?: { stage: string; pagesDone: number; pagesTotal: number | null };
}

export interface Property { id: string; label: string; labelId: string }
export interface PropertyValue extends Property {
  value: string | null;
  source: 'extracted' | 'manual' | null;
  confidence: number | null;
  location: Location | null;
  evidence: { method: string; cue: string | null; text: string | null } | null;
}

export interface Page { number: number; width?: number; height?: number; [k: string]: unknown }

export interface Project {
  id: string;
  name: string;
  type: string;
  docset: Ref;
  [k: string]: unknown;
}
export interface Artifact { id: string; name: string; version: string; url: string; downloadUrl?: string; [k: string]: unknown }

/** `url` is the webhook's own resource URL; `webhookUrl` the receiver its deliveries are POSTed to. */
export interface Webhook { id: string; target?: string; url: string; webhookUrl: string; events?: string[]; [k: string]: unknown }
export interface Delivery { id: string; status?: string; [k: string]: unknown }

export interface SessionCreated { sessionId: string; chunkSize: number; fileSize: number; url: string }
export interface SessionState { sessionId: string; chunkSize: number; fileSize: number; status: 'in-progress' | 'finalized'; receivedOffsets: number[]; document?: Ref }

export interface ApiKey { id: string; name: string; prefix: string; scopes: string[]; createdAt: string; revokedAt: string | null }
