// The noisy workspace of bench/load/noisy.ts, in its own process (so its fetches do not slow the
// client measuring the quiet workspace): uploads and page renders as fast as the server answers,
// until SIGTERM; then prints what it did as JSON on stdout.
//   argv[2]: JSON { api, key, uploadsInFlight, uploadsPerSecond, rendersInFlight, files: [path], renderDocs: [{ id, pages }] }
// Uploads are paced (uploadsPerSecond, all loops together; 0 = unpaced): well above what the workers
// ingest, so the workspace's backlog grows all along, but not so far that draining it takes an age.
import fs from 'node:fs';
import path from 'node:path';

interface FloodPlan {
  api: string;
  key: string;
  uploadsInFlight: number;
  uploadsPerSecond: number;
  rendersInFlight: number;
  files: string[];
  renderDocs: { id: string; pages: number }[];
}

const plan = JSON.parse(process.argv[2]!) as FloodPlan;
const files = plan.files.map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(f) }));
const auth = { authorization: `Bearer ${plan.key}` };
const statuses: Record<string, Record<string, number>> = { upload: {}, render: {} };
let stopping = false;
const count = (kind: string, status: number | string) => (statuses[kind]![status] = (statuses[kind]![status] ?? 0) + 1);

const started = performance.now();
let uploadsStarted = 0;

async function uploads(): Promise<void> {
  while (!stopping) {
    const i = uploadsStarted++;
    const due = plan.uploadsPerSecond > 0 ? started + (1000 * i) / plan.uploadsPerSecond : 0;
    if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
    if (stopping) break;
    const f = files[i % files.length]!;
    const form = new FormData();
    form.append('file', new Blob([f.bytes]), f.name);
    try {
      const r = await fetch(`${plan.api}/documents/content`, { method: 'POST', body: form, headers: auth });
      await r.arrayBuffer();
      count('upload', r.status);
    } catch (err) {
      count('upload', (err as Error).name);
    }
  }
}

// Every request a page image not rendered before: each (document, page, dpi) once, 300 DPI down.
let nextRender = 0;
function nextImage(): string {
  const n = nextRender++;
  const pagesInAll = plan.renderDocs.reduce((s, d) => s + d.pages, 0);
  const dpi = 300 - Math.floor(n / pagesInAll) % 265;
  let k = n % pagesInAll;
  const doc = plan.renderDocs.find((d) => (k < d.pages ? true : ((k -= d.pages), false)))!;
  return `${plan.api}/documents/${doc.id}/pages/${k + 1}/content?dpi=${dpi}`;
}

async function renders(): Promise<void> {
  while (!stopping) {
    try {
      const r = await fetch(nextImage(), { headers: auth });
      await r.arrayBuffer();
      count('render', r.status);
    } catch (err) {
      count('render', (err as Error).name);
    }
  }
}

const loops = [...Array.from({ length: plan.uploadsInFlight }, uploads), ...Array.from({ length: plan.rendersInFlight }, renders)];
process.on('SIGTERM', () => {
  stopping = true;
  void Promise.all(loops).then(() => {
    process.stdout.write(JSON.stringify(statuses));
    process.exit(0);
  });
});
