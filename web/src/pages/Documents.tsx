import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api/client.js';
import { STATUSES, inFlight, type Docset, type Document, type Sample } from '../api/types.js';
import { ProgressBar } from '../components/Progress.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { DocsetsPanel } from './Docsets.js';
import { SamplesPanel } from './Samples.js';
import { UploadPanel } from './Upload.js';

interface Filters {
  name: string;
  prefix: string;
  status: string;
  minPages: string;
  maxPages: string;
  minSize: string;
  maxSize: string;
  samples: string;
  metaKey: string;
  metaValue: string;
}
const EMPTY: Filters = { name: '', prefix: '', status: '', minPages: '', maxPages: '', minSize: '', maxSize: '', samples: '', metaKey: '', metaValue: '' };
type SortKey = 'name' | 'status' | 'size' | 'pageCount' | 'createdAt';

function query(f: Filters, docset: string): string {
  const p = new URLSearchParams({ limit: '25' });
  const { metaKey, metaValue, ...plain } = f;
  for (const [k, v] of Object.entries(plain)) if (v) p.set(k, v);
  if (metaKey.trim()) p.set(`metadata.${metaKey.trim()}`, metaValue);
  if (docset) p.set('docset.id', docset);
  return `/documents?${p}`;
}

export function DocumentsPage() {
  const [docsets, setDocsets] = useState<Docset[]>([]);
  const [docset, setDocset] = useState('');
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [pageUrl, setPageUrl] = useState<string | null>(null);
  const [history, setHistory] = useState<string[]>([]);
  const [docs, setDocs] = useState<Document[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; asc: boolean }>({ key: 'createdAt', asc: false });
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  const delay = useRef(1000);

  const loadDocsets = () => get<{ docsets: Docset[] }>('/docsets?limit=100&samples=true').then((r) => setDocsets(r.docsets), (e: Error) => setError(e.message));
  useEffect(() => void loadDocsets(), []);

  const url = pageUrl ?? query(applied, docset);
  useEffect(() => {
    let stop = false;
    get<{ documents: Document[]; next: string | null }>(url).then(
      (r) => {
        if (stop) return;
        setDocs(r.documents);
        setNext(r.next);
        setError('');
      },
      (e: Error) => setError(e.message),
    );
    return () => void (stop = true);
  }, [url, tick]);

  // Poll while documents are in flight, backing off from 1 s to 10 s; reset when nothing is.
  const busy = docs.some((d) => inFlight(d.status));
  useEffect(() => {
    if (!busy) {
      delay.current = 1000;
      return;
    }
    const t = setTimeout(() => {
      delay.current = Math.min(10_000, delay.current * 1.5);
      setTick((n) => n + 1);
      void loadDocsets();
    }, delay.current);
    return () => clearTimeout(t);
  }, [busy, tick]);

  const refresh = () => {
    delay.current = 1000;
    setTick((n) => n + 1);
    void loadDocsets();
  };
  const reset = (f: Filters, ds: string) => {
    setApplied(f);
    setDocset(ds);
    setPageUrl(null);
    setHistory([]);
  };
  // A loaded sample shows its new docset, whose documents are samples (lists leave them out unless asked).
  const showSample = (s: Sample) => {
    const f = { ...filters, samples: 'true' };
    setFilters(f);
    reset(f, s.docset.id);
    refresh();
  };
  const sorted = [...docs].sort((a, b) => {
    const av = a[sort.key] ?? '';
    const bv = b[sort.key] ?? '';
    const c = av < bv ? -1 : av > bv ? 1 : 0;
    return sort.asc ? c : -c;
  });
  const th = (key: SortKey, text: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.asc ? 'ascending' : 'descending') : 'none'}>
      <button type="button" class="link" onClick={() => setSort((s) => ({ key, asc: s.key === key ? !s.asc : true }))}>
        {text}
        {sort.key === key ? (sort.asc ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
  const field = (k: keyof Filters, label: string, type: 'text' | 'number' = 'text') => (
    <label>
      {label}
      {type === 'number' ? (
        <input type="number" min={0} value={filters[k]} onInput={(e) => setFilters({ ...filters, [k]: (e.target as HTMLInputElement).value })} />
      ) : (
        <input type="text" value={filters[k]} onInput={(e) => setFilters({ ...filters, [k]: (e.target as HTMLInputElement).value })} />
      )}
    </label>
  );

  return (
    <div class="documents-layout">
      <div class="side">
        <DocsetsPanel docsets={docsets} selected={docset} onSelect={(id) => reset(applied, id)} onChange={refresh} />
        <UploadPanel docsets={docsets} onUploaded={refresh} />
        <SamplesPanel onLoaded={showSample} />
      </div>
      <section class="panel" aria-labelledby="docs-h">
        <h2 id="docs-h">Documents</h2>
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            reset(filters, docset);
          }}
        >
          {field('name', 'Name')}
          {field('prefix', 'Name prefix')}
          <label>
            Status
            <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: (e.target as HTMLSelectElement).value })}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          {field('minPages', 'Min pages', 'number')}
          {field('maxPages', 'Max pages', 'number')}
          {field('minSize', 'Min size (bytes)', 'number')}
          {field('maxSize', 'Max size (bytes)', 'number')}
          {field('metaKey', 'Metadata key')}
          {field('metaValue', 'Metadata value')}
          <label class="check">
            <input type="checkbox" checked={filters.samples === 'true'} onChange={(e) => setFilters({ ...filters, samples: (e.target as HTMLInputElement).checked ? 'true' : '' })} />
            Include samples
          </label>
          <button type="submit">Filter</button>
        </form>
        {error && <p role="alert" class="error">{error}</p>}
        <div class="table-wrap">
          <table class="docs">
            <thead>
              <tr>
                {th('name', 'Name')}
                {th('status', 'Status')}
                {th('pageCount', 'Pages')}
                {th('size', 'Size')}
                {th('createdAt', 'Uploaded')}
              </tr>
            </thead>
            <tbody>
              {sorted.map((d) => (
                <tr key={d.id} data-doc={d.name} data-status={d.status}>
                  <td>
                    <a href={`#/documents/${encodeURIComponent(d.id)}`}>{d.name}</a>
                  </td>
                  <td>
                    <StatusBadge status={d.status} />
                    {inFlight(d.status) && <ProgressBar value={d.progress?.pagesDone ?? 0} max={d.progress?.pagesTotal ?? 0} label={`Processing ${d.name}`} />}
                    {d.error && <span class="error small-text">{d.error.title}</span>}
                  </td>
                  <td>{d.pageCount ?? ''}</td>
                  <td>{Math.ceil(d.size / 1024)} KB</td>
                  <td>{d.createdAt ? new Date(d.createdAt).toLocaleString() : ''}</td>
                </tr>
              ))}
              {sorted.length === 0 && (
                <tr>
                  <td colSpan={5}>No documents.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <nav class="pager" aria-label="Pages of documents">
          <button type="button" disabled={history.length === 0} onClick={() => {
            const h = [...history];
            const prev = h.pop() ?? null;
            setHistory(h);
            setPageUrl(prev);
          }}>
            Previous
          </button>
          <button type="button" disabled={!next} onClick={() => {
            setHistory([...history, url]);
            setPageUrl(next);
          }}>
            Next
          </button>
        </nav>
      </section>
    </div>
  );
}
