/**
 * GET /metrics against deploy/grafana-dashboard.json: a real server reads a scanned PDF (OCR) and
 * delivers a webhook to a real receiver, then every metric the dashboard's queries name is in its
 * scrape, as are the standard process and Node.js metrics under their usual names.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CORPUS, ROOT, startQuire, type Quire } from '../helpers/quire.js';
import { assertJson, client, type Client, until } from '../helpers/http.js';
import { onBothDatabases } from '../helpers/postgres.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const SCAN = path.join(CORPUS, 'kgrag/nih-clinical-trial-protocols/NCT06155240_Prot_SAP_000.pdf');
const DASHBOARD = path.join(ROOT, 'deploy/grafana-dashboard.json');

/** PromQL words that are not metric names (aggregations and functions are told by the `(` after them). */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression (or a Grafana label_values() query) reads. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges ($__rate_interval…)
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/label_values\(\s*([a-zA-Z_:][\w:]*)\s*,[^)]*\)/g, ' $1 ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w:.$])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1]!.toLowerCase())) continue;
    names.add(m[1]!);
  }
  return [...names];
}

/** Every query of the dashboard: its panels' targets and its query variables. */
function dashboardQueries(): string[] {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));
  const queries: string[] = [];
  const walk = (panels: any[]) => {
    for (const p of panels ?? []) {
      for (const t of p.targets ?? []) if (t.expr) queries.push(t.expr);
      walk(p.panels);
    }
  };
  walk(dashboard.panels);
  for (const v of dashboard.templating?.list ?? []) if (v.type === 'query') queries.push(typeof v.query === 'string' ? v.query : v.query.query);
  return queries;
}

/** Sample lines by metric name (a histogram's as `_bucket`, `_sum`, `_count`). */
function samples(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (!m) continue;
    const lines = out.get(m[1]!) ?? [];
    lines.push(line);
    out.set(m[1]!, lines);
  }
  return out;
}

const value = (lines: string[] | undefined, labels: RegExp) => lines?.filter((l) => labels.test(l)).reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0) ?? 0;

test('metricNames finds the metrics of a query, not its functions, labels or ranges', () => {
  assert.deepEqual(metricNames('histogram_quantile(0.95, sum by (le, route) (rate(quire_http_request_duration_seconds_bucket{instance=~"$instance", a="b(c)"}[$__rate_interval])))'), [
    'quire_http_request_duration_seconds_bucket',
  ]);
  assert.deepEqual(metricNames('sum by (engine) (rate(a_total[5m])) / on (engine) group_left sum without (x) (b_total offset 1h)'), ['a_total', 'b_total']);
  assert.deepEqual(metricNames('label_values(quire_queue_jobs, instance)'), ['quire_queue_jobs']);
  assert.deepEqual(metricNames('process_resident_memory_bytes'), ['process_resident_memory_bytes']);
});

test('the dashboard is a Grafana dashboard on a Prometheus datasource variable', () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));
  assert.equal(dashboard.title, 'Quire');
  assert.ok(dashboard.schemaVersion >= 36);
  assert.ok(dashboard.templating.list.some((v: any) => v.type === 'datasource' && v.query === 'prometheus' && v.name === 'datasource'));
  const panels = dashboard.panels.filter((p: any) => p.type !== 'row');
  assert.ok(panels.length >= 10);
  for (const p of panels) {
    assert.equal(p.datasource.uid, '${datasource}', p.title);
    assert.ok(p.targets.length > 0, p.title);
  }
  assert.equal(new Set(dashboard.panels.map((p: any) => p.id)).size, dashboard.panels.length, 'panel ids are unique');
});

onBothDatabases('metrics', 'quire_metrics', (dialect, database, teardown) => {
  describe(`GET /metrics and the Grafana dashboard (${dialect})`, () => {
    let q: Quire;
    let c: Client;
    const rx = new WebhookReceiver();

    before(async () => {
      await rx.listen();
      const db = await database();
      q = await startQuire({ ...(db.kind === 'postgres' ? { databaseUrl: db.url } : {}), extraEnv: { QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
      c = client(q.api, q.key);
    });
    after(async () => {
      await rx.close();
      const code = await q?.stop();
      await teardown();
      assert.equal(code, 0, `server exited with ${code}:\n${q?.logs()}`);
    });

    test('after an OCR read and a webhook delivery, every metric the dashboard names is scraped; the standard ones keep their usual names', async () => {
      assertJson(await c.post('/webhooks', { json: { target: 'Documents', url: rx.expect('/hook', null) } }), 201);
      const up = await c.upload({ path: SCAN });
      assertJson(up, 201);
      const id = up.json.id as string;
      const doc = await until(`document ${id} processed`, async () => {
        const d = (await c.get(`/documents/${id}`)).json;
        return d.status === 'Ready' || d.status === 'Error' ? d : undefined;
      });
      assert.equal(doc.status, 'Ready', JSON.stringify(doc));
      assert.deepEqual(doc.processing.analysis.ocrPages, [1], 'the scan is read by OCR');
      await rx.waitFor('a delivery', () => rx.unique('/hook').length > 0, 60_000);

      const text = await until('the delivery and the OCR counted', async () => {
        const t = await (await fetch(`${q.origin}/metrics`)).text();
        const s = samples(t);
        return value(s.get('quire_webhook_deliveries_total'), /outcome="delivered"/) >= 1 && value(s.get('quire_ocr_pages_total'), /outcome="read"/) >= 1 ? t : undefined;
      }, 30_000);
      const scraped = samples(text);

      const queries = dashboardQueries();
      const named = new Set(queries.flatMap(metricNames));
      assert.ok(named.size >= 15, [...named].join(', '));
      for (const name of ['quire_queue_jobs', 'quire_queue_oldest_waiting_seconds', 'quire_webhook_deliveries_total', 'quire_webhook_delivery_lag_seconds_bucket', 'quire_ocr_pages_total', 'quire_ocr_seconds_total', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds']) {
        assert.ok(named.has(name), `the dashboard uses ${name}`);
      }
      const missing = [...named].filter((n) => !scraped.has(n));
      assert.deepEqual(missing, [], `metrics the dashboard names that /metrics does not have`);

      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_version_info']) {
        assert.ok(scraped.has(name), `${name} in /metrics`);
      }
      assert.deepEqual([...scraped.keys()].filter((n) => /^quire_(process|nodejs)_/.test(n)), [], 'no standard metric under a quire_ prefix');

      // What this run did, in Quire's own.
      assert.equal(value(scraped.get('quire_ocr_pages_total'), /outcome="read"/), 1);
      assert.match(scraped.get('quire_ocr_pages_total')!.join('\n'), /engine="(tesseract-cli|tesseract\.js)"/);
      assert.ok(value(scraped.get('quire_ocr_seconds_total'), /engine=/) > 0);
      assert.ok(value(scraped.get('quire_webhook_delivery_lag_seconds_count'), /.*/) >= 1);
      for (const queue of ['ingest', 'process', 'webhook']) {
        assert.match(text, new RegExp(`^quire_queue_jobs\\{queue="${queue}",state="waiting"\\} \\d+$`, 'm'));
        assert.match(text, new RegExp(`^quire_queue_oldest_waiting_seconds\\{queue="${queue}"\\} \\S+$`, 'm'));
      }
    });
  });
});
