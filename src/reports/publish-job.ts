import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Job, JobHandler } from '../store/queue/queue.js';
import type { BlobStore } from '../store/blobs/blob-store.js';
import type { ProjectService } from '../domain/projects.js';
import type { ArtifactService, GeneratedArtifact } from '../domain/artifacts.js';
import type { StructureService } from '../domain/structure.js';
import type { ProjectType } from '../model/projects.js';
import type { ReportGenerator } from './report.js';
import type { StructureModel } from '../document/structure.js';
import { PUBLISH_JOB } from '../model/jobs.js';

/** No single generated file may exceed this (a guard against a runaway generator). */
const MAX_ARTIFACT_BYTES = 1024 * 1024 * 1024;

export interface PublishJobOptions {
  debounceMs: number;
  settleRetryMs: number;
  settleMaxMs: number;
}

/**
 * The `publish` job: once a project's inputs have stopped changing (debounce) and its documents are
 * processed and extracted (settled), generates the files of its type and records them as the next
 * version; an unchanged input publishes nothing.
 */
export class PublishJob implements JobHandler<{ projectId: string }> {
  /** The queue it serves. */
  static readonly queue = PUBLISH_JOB;

  constructor(
    private readonly projects: ProjectService,
    private readonly artifacts: ArtifactService,
    private readonly structures: StructureService,
    private readonly blobs: BlobStore,
    private readonly generators: Record<string, ReportGenerator>,
    private readonly options: PublishJobOptions,
    private readonly logger: Logger,
    private readonly apiBase: string,
  ) {}

  async run(job: Job<{ projectId: string }>): Promise<void> {
    const p = await this.projects.storedById(job.payload.projectId);
    if (!p || p.dirtyAt === null) return;
    const now = Date.now();
    const quietAt = (p.changedAt ?? 0) + this.options.debounceMs;
    if (quietAt > now) return this.projects.requeue(p, quietAt);

    const inputs = await this.projects.inputs(p);
    if (!inputs) return this.projects.forceClean(p); // the docset is gone: the project keeps what it published
    if (!inputs.settled && now - p.dirtyAt < this.options.settleMaxMs) return this.projects.requeue(p, now + this.options.settleRetryMs);

    if (p.latestVersion > 0 && (await this.latestHash(p)) === inputs.inputsHash) {
      if (!(await this.projects.markClean(p))) await this.projects.requeue(p, Date.now());
      return;
    }

    const generator = this.generators[p.type];
    if (!generator) throw new Error(`no generator for project type ${p.type}`);
    const started = performance.now();
    const generated: GeneratedArtifact[] = [];
    const byId = new Map(inputs.documents.map((d) => [d.id, d]));
    try {
      await generator(
        {
          project: { id: p.id, name: p.name, type: p.type as ProjectType, url: `${this.apiBase}/projects/${p.id}` },
          docset: { id: inputs.docset.id, name: inputs.docset.name, url: `${this.apiBase}/docsets/${inputs.docset.id}` },
          version: String(p.latestVersion + 1),
          generatedAt: new Date(),
          items: inputs.items,
          properties: inputs.properties,
          documents: inputs.documents,
          structureOf: async (documentId): Promise<StructureModel | null> => {
            const d = byId.get(documentId);
            if (!d?.structureBlobKey) return null;
            return this.structures.structureAt(d.structureBlobKey).catch(() => null);
          },
        },
        {
          write: async (spec, body) => {
            const staged = await this.blobs.stage(Buffer.isBuffer(body) ? Readable.from([body]) : body, { maxBytes: MAX_ARTIFACT_BYTES });
            generated.push({ name: spec.name, documentId: spec.documentId, staged });
          },
        },
      );
    } catch (e) {
      for (const g of generated) await this.blobs.discard(g.staged.tempKey).catch(() => undefined);
      throw e;
    }
    const generatedMs = performance.now() - started;
    const result = await this.artifacts.recordVersion(p, generated, { inputsHash: inputs.inputsHash, inputHashes: inputs.inputHashes, documentCount: inputs.documents.length });
    if (result === null) return; // deleted, or another worker recorded a version: its chain carries on
    this.logger.info(
      { projectId: p.id, version: result.version, artifacts: generated.length, documents: inputs.documents.length, generateMs: Math.round(generatedMs), totalMs: Math.round(performance.now() - started) },
      'project version published',
    );
    if (!result.clean) await this.projects.requeue(p, Date.now() + this.options.debounceMs);
  }

  async onFinalFailure(job: Job<{ projectId: string }>, error: unknown): Promise<void> {
    // Leave the project clean so that its next change starts a new attempt.
    const p = await this.projects.storedById(job.payload.projectId);
    if (p) await this.projects.forceClean(p);
    this.logger.error({ projectId: job.payload.projectId, err: error }, 'publishing a project version failed');
  }

  private async latestHash(p: { id: string; latestVersion: number }): Promise<string | null> {
    return this.projects.versionHash(p.id, p.latestVersion);
  }
}
