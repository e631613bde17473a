import type { DocumentService } from './documents.js';
import type { UploadSessionService } from './upload-sessions.js';
import type { PageService } from './pages.js';
import type { StructureService } from './structure.js';
import type { PropertyService } from './properties.js';
import type { SemanticLabelService } from './semantic-labels.js';
import type { SampleService } from './samples.js';
import type { DocsetService } from './docsets.js';
import type { MetadataService } from './metadata.js';
import type { WorkspaceService } from './workspaces.js';
import type { PartitionedListings } from './listings.js';
import type { WebhookService } from './webhooks.js';
import type { ProjectService } from './projects.js';
import type { ArtifactService } from './artifacts.js';

/**
 * The domain services, once: the composition root builds them (app/services.ts, `Services`) and the
 * routes are handed them (http/context.ts, `HttpDeps`); both types extend this one.
 */
export interface DomainServices {
  documents: DocumentService;
  uploads: UploadSessionService;
  docsets: DocsetService;
  metadata: MetadataService;
  workspaces: WorkspaceService;
  pages: PageService;
  structure: StructureService;
  properties: PropertyService;
  /** The labels found in docsets' documents (`GET …/docsets/{id}/labels`), and turning one into a property. */
  labels: SemanticLabelService;
  samples: SampleService;
  projects: ProjectService;
  artifacts: ArtifactService;
  webhooks: WebhookService;
  /** Partitioned listings (the operation-style interface, src/http/ops). */
  partitions: PartitionedListings;
}
