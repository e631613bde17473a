// Page images of a large PDF, memory (bench/README.md): a server's RSS while BENCH_REQUESTS page
// images of one BENCH_PDF_MB PDF are asked for at once. Before issue 46 each request read the whole
// PDF into the API's event loop, copied it to the rendering thread and into PDFium's memory; now the
// thread reads the PDF's file block by block. The PDF: BENCH_PAGES letter pages of text and one
// stream of random bytes no page draws (so rendering itself costs little and reading shows).
// Renders per workspace are not limited here (QUIRE_PAGE_RENDERS_PER_WORKSPACE=0), so every request
// is in flight at once. Run it in a checkout of each build to compare.
//
//   npx tsx bench/page-images/memory.ts
//
// Environment: BENCH_PDF_MB (200), BENCH_PAGES (4), BENCH_REQUESTS (8).
import { randomBytes } from 'node:crypto';
import { client } from '../../test/helpers/http.js';
import { startQuire } from '../../test/helpers/quire.js';
import { envNumber, gitState, machine, printTable, procStatusBytes, sampleRss } from '../lib/machine.js';
import { writeResults } from '../lib/results.js';

const PDF_MB = envNumber('BENCH_PDF_MB', 200);
const PAGES = Math.max(1, Math.round(envNumber('BENCH_PAGES', 4)));
const REQUESTS = Math.max(1, Math.round(envNumber('BENCH_REQUESTS', 8)));
const MiB = 1024 * 1024;

function largePdf(): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (body: Buffer | string) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${offsets.length} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  };
  const stream = (data: Buffer) => Buffer.concat([Buffer.from(`<< /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);
  const font = '/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>';
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${Array.from({ length: PAGES }, (_, i) => `${3 + 2 * i} 0 R`).join(' ')}] /Count ${PAGES} >>`);
  for (let i = 0; i < PAGES; i++) {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${font} /Contents ${4 + 2 * i} 0 R >>`);
    add(stream(Buffer.from(`BT /F1 14 Tf 72 700 Td (Page ${i + 1} of a large PDF: most of its bytes are a stream no page draws.) Tj ET`)));
  }
  add(stream(randomBytes(Math.round(PDF_MB * MiB))));
  const xref = ['xref', `0 ${offsets.length + 1}`, '0000000000 65535 f\r', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r`)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const started = new Date();
const pdf = largePdf();
const q = await startQuire({ extraEnv: { QUIRE_PAGE_RENDERS_PER_WORKSPACE: '0', QUIRE_WORKER_CONCURRENCY: '1' } });
try {
  const c = client(q.api, q.key);
  const up = await c.upload({ bytes: pdf, name: 'large.pdf' });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.text}`);
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    const d = (await c.get(`/documents/${up.json.id}`)).json;
    if (d.status === 'Ready') break;
    if (d.status === 'Error' || Date.now() > deadline) throw new Error(`document ${d.status}: ${JSON.stringify(d.error)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 3000));
  const pid = q.process.pid!;
  const before = procStatusBytes(pid, 'VmRSS');
  const sampler = sampleRss(pid, 50, false);
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) => c.get(`/documents/${up.json.id}/pages/${1 + (i % PAGES)}/content?dpi=${72 + Math.floor(i / PAGES)}`)),
  );
  const seconds = (performance.now() - t0) / 1000;
  const rss = sampler.stop();
  const statuses = answers.map((a) => a.status);
  const out = {
    git: gitState(),
    machine: machine(),
    settings: { pdfMiB: pdf.length / MiB, pages: PAGES, requests: REQUESTS },
    statuses,
    seconds,
    rssBeforeMiB: before / MiB,
    peakRssMiB: rss.peakProcess / MiB,
    growthMiB: (rss.peakProcess - before) / MiB,
  };
  const header = ['PDF MiB', 'requests at once', 'answers', 's', 'RSS before MiB', 'peak RSS MiB', 'growth MiB'];
  const row = [out.settings.pdfMiB.toFixed(0), String(REQUESTS), [...new Set(statuses)].join(','), seconds.toFixed(2), out.rssBeforeMiB.toFixed(0), out.peakRssMiB.toFixed(0), out.growthMiB.toFixed(0)];
  printTable([header, row], new Set([0, 1, 3, 4, 5, 6]));
  writeResults('page-images-memory', started, out);
} finally {
  await q.stop();
}
