import { sql, type Kysely } from 'kysely';
import type { Config } from '../../runtime/config.js';
import { migrateToLatest, openDb, type Dialect } from './connect.js';
import type { Database } from './schema.js';
import type { PointReads } from './point-reads.js';
import { DocumentsRepo } from './documents.js';
import { DocsetsRepo } from './docsets.js';
import { MetadataRepo } from './metadata.js';
import { WorkspacesRepo } from './workspaces.js';
import { ApiKeysRepo } from './api-keys.js';
import { SettingsRepo } from './settings.js';
import { UploadSessionsRepo } from './upload-sessions.js';
import { JobsRepo } from './jobs.js';
import { EventsRepo } from './events.js';
import { IngestRepo } from './ingest.js';
import { RawSqlRepo } from './raw.js';
import { SamplesRepo } from './samples.js';
import { PropertiesRepo } from './properties.js';
import { ClassificationRepo } from './classification.js';
import { WebhooksRepo } from './webhooks.js';
import { ProjectsRepo } from './projects.js';
import { ArtifactsRepo } from './artifacts.js';
import { SemanticLabelsRepo } from './semantic-labels.js';
import { UsageRepo } from './usage.js';
import { PageImagesRepo } from './page-images.js';
import { StructureFilesRepo } from './structure-files.js';
import { CommitObserver, noteCommitted } from './changes.js';
import { asConstraintError } from './constraints.js';
import type { SecretBox } from '../../runtime/secret-box.js';

/** Every repository, bound to one connection or one transaction. */
export class Repos {
  readonly documents: DocumentsRepo;
  readonly docsets: DocsetsRepo;
  readonly metadata: MetadataRepo;
  readonly workspaces: WorkspacesRepo;
  readonly apiKeys: ApiKeysRepo;
  readonly settings: SettingsRepo;
  readonly uploadSessions: UploadSessionsRepo;
  readonly jobs: JobsRepo;
  readonly events: EventsRepo;
  readonly ingest: IngestRepo;
  readonly samples: SamplesRepo;
  readonly properties: PropertiesRepo;
  readonly classification: ClassificationRepo;
  readonly webhooks: WebhooksRepo;
  readonly projects: ProjectsRepo;
  readonly artifacts: ArtifactsRepo;
  readonly semanticLabels: SemanticLabelsRepo;
  readonly usage: UsageRepo;
  readonly pageImages: PageImagesRepo;
  readonly structureFiles: StructureFilesRepo;
  /** Raw parameterized SQL in this connection or transaction (the pg-boss `db` adapter). */
  readonly raw: RawSqlRepo;

  /**
   * `pointReads` only outside transactions: a transaction must see its own uncommitted writes.
   * `secrets` seals and opens webhook secrets; without it a secret can be neither stored nor read.
   */
  constructor(db: Kysely<Database>, pointReads?: PointReads, secrets?: SecretBox) {
    this.documents = new DocumentsRepo(db, pointReads);
    this.docsets = new DocsetsRepo(db);
    this.metadata = new MetadataRepo(db);
    this.workspaces = new WorkspacesRepo(db);
    this.apiKeys = new ApiKeysRepo(db, pointReads);
    this.settings = new SettingsRepo(db);
    this.uploadSessions = new UploadSessionsRepo(db);
    this.jobs = new JobsRepo(db);
    this.events = new EventsRepo(db);
    this.ingest = new IngestRepo(db);
    this.samples = new SamplesRepo(db);
    this.properties = new PropertiesRepo(db);
    this.classification = new ClassificationRepo(db);
    this.webhooks = new WebhooksRepo(db, secrets);
    this.projects = new ProjectsRepo(db);
    this.artifacts = new ArtifactsRepo(db);
    this.semanticLabels = new SemanticLabelsRepo(db);
    this.usage = new UsageRepo(db);
    this.pageImages = new PageImagesRepo(db);
    this.structureFiles = new StructureFilesRepo(db);
    this.raw = new RawSqlRepo(db);
  }
}

/** How often SQLite's planner statistics are refreshed; PostgreSQL's autovacuum does this itself. */
const ANALYZE_EVERY_MS = 5 * 60 * 1000;

export class Store extends Repos {
  private analyzeTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    private readonly pointReads: PointReads,
    private readonly secrets: SecretBox | undefined,
  ) {
    // Outside transactions a successful write has committed: the observer tells the unit of work
    // (src/store/db/changes.ts). Transactions run on the bare connection and tell it on commit.
    super(db.withPlugin(new CommitObserver()), pointReads, secrets);
  }

  static async open(database: Config['database'], opts: { migrate?: boolean; secrets?: SecretBox } = {}): Promise<Store> {
    const { db, dialect, pointReads } = openDb(database);
    if (opts.migrate ?? true) await migrateToLatest(db);
    const store = new Store(db, dialect, pointReads, opts.secrets);
    if (dialect === 'sqlite') {
      // Without statistics SQLite's planner takes a range index (page_count) and sorts the whole
      // workspace for a filtered list; with them it walks (workspace_id, status, id) in order.
      await store.analyze();
      store.analyzeTimer = setInterval(() => void store.analyze().catch(() => undefined), ANALYZE_EVERY_MS);
      store.analyzeTimer.unref();
    }
    return store;
  }

  /** Refreshes SQLite's planner statistics from a bounded sample (a few milliseconds). */
  async analyze(): Promise<void> {
    await sql`PRAGMA analysis_limit = 1000`.execute(this.db);
    await sql`ANALYZE`.execute(this.db);
  }

  /**
   * Runs `fn` in one database transaction: all its writes commit together or not at all. The unit of
   * work it runs in (an API request) learns of the commit; and of a failure of the COMMIT itself
   * (a lost connection), after which the writes may or may not have been kept. A unique or
   * foreign-key violation (a race with another request its checks could not see) becomes a
   * ConstraintViolationError saying what it means: 409 for a name taken meanwhile, 404 for something
   * deleted meanwhile (src/store/db/constraints.ts).
   */
  async tx<T>(fn: (repos: Repos) => Promise<T>): Promise<T> {
    let committing = false;
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        const r = await fn(new Repos(trx, undefined, this.secrets));
        committing = true;
        return r;
      });
      noteCommitted();
      return result;
    } catch (err) {
      if (committing) noteCommitted();
      throw asConstraintError(err);
    }
  }

  /** Readiness: the database answers a read (it writes nothing: `/readyz` may be called every second). */
  async ping(): Promise<void> {
    await sql`select 1 as one`.execute(this.db);
  }

  async close(): Promise<void> {
    clearInterval(this.analyzeTimer);
    await this.pointReads.close();
    await this.db.destroy();
  }
}
