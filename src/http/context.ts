import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../runtime/config.js';
import type { RateLimiter } from './rate-limit.js';
import type { DocumentService } from '../domain/documents.js';
import type { UploadSessionService } from '../domain/uploads.js';
import type { PageService } from '../domain/pages.js';
import type { StructureService } from '../domain/structure.js';
import type { PropertyService } from '../domain/properties.js';
import type { SemanticLabelService } from '../domain/semantic-labels.js';
import type { SampleService } from '../domain/samples.js';
import type { DocsetService } from '../domain/docsets.js';
import type { MetadataService } from '../domain/metadata.js';
import type { Principal, WorkspaceService } from '../domain/workspace.js';
import type { Scope } from '../model/scopes.js';
import type { Cursors } from './pagination.js';
import type { PartitionedListings } from '../domain/listings.js';
import type { WebhookService } from '../domain/webhooks.js';
import type { ProjectService } from '../domain/projects.js';
import type { ArtifactService } from '../domain/artifacts.js';
import type { ChangeScope } from '../store/db/changes.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What route handlers reach: configuration and the domain services, nothing below them. */
export interface HttpDeps {
  config: Config;
  /** Requests per API key (set by buildServer from config.http; absent = no limit). */
  rateLimiter?: RateLimiter;
  documents: DocumentService;
  uploads: UploadSessionService;
  pages: PageService;
  structure: StructureService;
  properties: PropertyService;
  labels: SemanticLabelService;
  samples: SampleService;
  projects: ProjectService;
  artifacts: ArtifactService;
  docsets: DocsetService;
  metadata: MetadataService;
  workspaces: WorkspaceService;
  webhooks: WebhookService;
  cursors: Cursors;
  /** Partitioned listings (the operation-style interface, src/http/ops). */
  partitions: PartitionedListings;
  /** Readiness probes for /readyz: each throws when its dependency cannot be reached. */
  probes: { database: () => Promise<void>; storage: () => Promise<void>; queue: () => Promise<void> };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Of a request that may change state (not GET, HEAD, OPTIONS): whether it has committed anything. */
    changes: ChangeScope | null;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; 'any' = any valid key; undefined = no key needed. */
    scope?: Scope | 'any';
  }
}

/** The authenticated principal of a request that passed the auth hook. */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route without auth reached a principal lookup');
  return request.principal;
}
