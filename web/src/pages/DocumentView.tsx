import { useEffect, useState } from 'preact/hooks';
import { del, download, get } from '../api/client.js';
import { outline, type OutlineItem } from '../api/dgml.js';
import { usePollTick } from '../api/poll.js';
import { inFlight, type Box, type Document, type Page, type PropertyValue } from '../api/types.js';
import { AuthImage } from '../components/AuthImage.js';
import { ProgressBar } from '../components/Progress.js';
import { StatusBadge } from '../components/StatusBadge.js';
import { PropertiesPanel } from './PropertiesPanel.js';
import { TextPanel } from './TextPanel.js';

const THUMB_DPI = 36;
const VIEW_DPI = 100;
const ZOOM_DPI = 300;

export function DocumentView({ id }: { id: string }) {
  const [doc, setDoc] = useState<Document | null>(null);
  const [pages, setPages] = useState<Page[]>([]);
  const [current, setCurrent] = useState(1);
  const [zoom, setZoom] = useState(false);
  const [box, setBox] = useState<Box | null>(null);
  const [dgml, setDgml] = useState('');
  const [items, setItems] = useState<OutlineItem[]>([]);
  const [error, setError] = useState('');

  // The document is polled while in flight (status, progress); its pages and DGML are fetched again
  // when it settles, as they are complete only then.
  const busy = !!doc && inFlight(doc.status);
  const tick = usePollTick(busy);
  useEffect(() => {
    let stop = false;
    get<Document>(`/documents/${id}`).then(
      (d) => {
        if (stop) return;
        setDoc(d);
        setError('');
      },
      (e: Error) => !stop && setError(e.message),
    );
    return () => void (stop = true);
  }, [id, tick]);
  const phase = doc ? (busy ? 'in-flight' : doc.status) : null;
  useEffect(() => {
    if (!phase) return;
    let stop = false;
    get<{ pages: Page[] }>(`/documents/${id}/pages`).then((r) => !stop && setPages(r.pages), () => undefined);
    get<string>(`/documents/${id}/dgml`).then(
      (x) => {
        if (stop) return;
        setDgml(x);
        setItems(outline(x));
      },
      () => undefined,
    );
    return () => void (stop = true);
  }, [id, phase]);

  const remove = async () => {
    if (!doc || !confirm(`Delete document "${doc.name}"? Its pages, properties and stored bytes go with it.`)) return;
    try {
      await del(`/documents/${id}`);
      location.hash = '#/';
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const save = (path: string, name: string) => download(path, name).catch((e: Error) => setError(e.message));

  const page = pages.find((p) => p.number === current);
  const pick = (v: PropertyValue) => {
    if (!v.location) return;
    setCurrent(v.location.page);
    setBox(v.location.boundingBox);
  };
  const pct = (n: number, of: number | undefined) => `${of ? (n / of) * 100 : 0}%`;

  return (
    <div class="doc-view">
      <p>
        <a href="#/">← Documents</a>
      </p>
      {error && <p role="alert" class="error">{error}</p>}
      {doc && (
        <>
          <h1 class="doc-title" data-status={doc.status}>
            {doc.name} <StatusBadge status={doc.status} />
          </h1>
          {busy && <ProgressBar value={doc.progress?.pagesDone ?? 0} max={doc.progress?.pagesTotal ?? 0} label={`Processing ${doc.name}`} />}
          {doc.error && <p class="error">{doc.error.title}</p>}
          <div class="toolbar doc-actions">
            <button type="button" onClick={() => void save(`/documents/${id}/content`, doc.name)}>
              Download original
            </button>
            <button type="button" class="danger" onClick={() => void remove()}>
              Delete document
            </button>
          </div>
        </>
      )}
      <div class="doc-grid">
        <nav class="thumbs" aria-label="Pages">
          {pages.map((p) => (
            <button type="button" key={p.number} class={p.number === current ? 'thumb selected' : 'thumb'} aria-label={`Page ${p.number}`} aria-current={p.number === current ? 'page' : undefined} onClick={() => { setCurrent(p.number); setBox(null); }}>
              <AuthImage src={`/documents/${id}/pages/${p.number}/content?dpi=${THUMB_DPI}`} alt={`Thumbnail of page ${p.number}`} />
              <span>{p.number}</span>
            </button>
          ))}
        </nav>
        <section class="page-view" aria-label={`Page ${current}`}>
          <div class="toolbar">
            <button type="button" aria-pressed={zoom} onClick={() => setZoom(!zoom)}>
              {zoom ? 'Fit' : 'Zoom (300 DPI)'}
            </button>
          </div>
          {page && (
            <div class={zoom ? 'page-frame zoomed' : 'page-frame'} data-page={page.number} data-width={page.width} data-height={page.height}>
              <AuthImage key={`${current}-${zoom}`} src={`/documents/${id}/pages/${current}/content?dpi=${zoom ? ZOOM_DPI : VIEW_DPI}`} alt={`Page ${current}`} class="page-image" />
              {box && (
                <div
                  class="highlight"
                  data-testid="highlight"
                  style={{ left: pct(box.left, page.width as number), top: pct(box.top, page.height as number), width: pct(box.width, page.width as number), height: pct(box.height, page.height as number) }}
                />
              )}
            </div>
          )}
          {!pages.length && <p>Pages appear once the document is ingested.</p>}
        </section>
        <div class="doc-side">
          {doc?.docset && <PropertiesPanel docsetId={doc.docset.id} documentId={id} onPick={pick} />}
          {doc && !doc.docset && <p class="hint">Properties belong to a docset: this document is in none.</p>}
          <section class="panel" aria-labelledby="outline-h">
            <h2 id="outline-h">Outline</h2>
            <ol class="outline">
              {items.map((it, i) => (
                <li key={i} class={`depth-${Math.min(it.depth, 4)} kind-${it.kind}`}>
                  <button type="button" class="link" disabled={!it.page} onClick={() => it.page && (setCurrent(it.page), setBox(null))}>
                    {it.kind === 'table' ? '▦ ' : '§ '}
                    {it.text || '(untitled)'}
                  </button>
                </li>
              ))}
            </ol>
            {dgml && (
              <>
                <button type="button" onClick={() => void save(`/documents/${id}/dgml`, `${doc?.name ?? id}.xml`)}>
                  Download DGML
                </button>
                <details>
                  <summary>Raw DGML</summary>
                  <pre class="raw">{dgml}</pre>
                </details>
              </>
            )}
          </section>
        </div>
      </div>
      {doc && <TextPanel id={id} ready={doc.status === 'Ready'} />}
    </div>
  );
}
