import { ApiError, API, authHeaders } from './client.js';
import { signOut } from './session.js';
import type { Document, SessionCreated, SessionState } from './types.js';

/** Files above this size go through a chunked, resumable upload session. */
export const CHUNKED_ABOVE = 8 * 1024 * 1024;
const IN_FLIGHT = 3;

export type Progress = (sent: number, total: number) => void;

/** POST a form with XMLHttpRequest, for its upload progress events. */
function xhrPost<T>(url: string, form: FormData, onProgress?: (loaded: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onerror = () => reject(new ApiError(0, 'Network error'));
    xhr.onabort = () => reject(new ApiError(0, 'Aborted'));
    xhr.onload = () => {
      let body: { detail?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON
      }
      if (xhr.status === 401) signOut();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body.detail ?? `${xhr.status}`));
    };
    xhr.send(form);
  });
}

/** `docset.id` for one docset, or several joined by `|` (classification into one of them). */
export function docsetField(ids: string[]): string | undefined {
  return ids.length ? ids.join('|') : undefined;
}

export async function uploadSmall(file: File, docsets: string[], onProgress: Progress): Promise<Document> {
  const form = new FormData();
  const spec = docsetField(docsets);
  if (spec) form.append('docset.id', spec);
  form.append('file', file, file.name);
  const r = await xhrPost<Document>(`${API}/documents/content`, form, (n) => onProgress(Math.min(n, file.size), file.size));
  onProgress(file.size, file.size);
  return r;
}

/** localStorage key of a file's session: the same name, size and modification time resume it. */
export function sessionKey(file: File): string {
  return `quire.upload:${file.name}:${file.size}:${file.lastModified}`;
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T | null> {
  const r = await fetch(API + path, {
    method,
    headers: { ...authHeaders(), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : null,
  });
  if (r.status === 404) return null;
  if (r.status === 401) signOut();
  const parsed = (await r.json().catch(() => ({}))) as T & { detail?: string };
  if (!r.ok) throw new ApiError(r.status, parsed.detail ?? String(r.status));
  return parsed;
}

export interface ChunkedStats {
  chunksSent: number;
  resumed: boolean;
}

/**
 * A chunked upload with 3 chunks in flight. The session id is kept in localStorage under the file's
 * name, size and mtime: picking the same file again (after a network error or a reload) sends only
 * the chunks the server has not received.
 */
export async function uploadChunked(file: File, docsets: string[], onProgress: Progress, stats: ChunkedStats = { chunksSent: 0, resumed: false }): Promise<Document> {
  const key = sessionKey(file);
  // What the upload needs of a session: the server's state of a remembered one, or a new one's.
  let state: Pick<SessionState, 'sessionId' | 'chunkSize' | 'fileSize' | 'status' | 'receivedOffsets'> | null = null;
  const remembered = localStorage.getItem(key);
  if (remembered) state = await json<SessionState>('GET', `/documents/uploads/session/${encodeURIComponent(remembered)}`);
  if (!state) {
    const created = await json<SessionCreated>('POST', '/documents/uploads/session', {
      fileName: file.name,
      fileSize: file.size,
      ...(docsets.length ? { 'docset.id': docsetField(docsets) } : {}),
    });
    if (!created) throw new ApiError(404, 'Unknown docset');
    localStorage.setItem(key, created.sessionId);
    state = { sessionId: created.sessionId, chunkSize: created.chunkSize, fileSize: file.size, status: 'in-progress', receivedOffsets: [] };
  } else stats.resumed = true;
  const { sessionId, chunkSize } = state;
  const have = new Set(state.receivedOffsets);
  const done = new Map<number, number>();
  for (const o of have) done.set(o, Math.min(chunkSize, file.size - o));
  const report = () => onProgress([...done.values()].reduce((a, b) => a + b, 0), file.size);
  report();
  if (state.status !== 'finalized') {
    const todo: number[] = [];
    for (let o = 0; o < file.size; o += chunkSize) if (!have.has(o)) todo.push(o);
    const worker = async () => {
      for (let o = todo.shift(); o !== undefined; o = todo.shift()) {
        const form = new FormData();
        form.append('byteOffset', String(o));
        const part = file.slice(o, Math.min(o + chunkSize, file.size));
        form.append('file', part, file.name);
        const offset = o;
        stats.chunksSent++;
        await xhrPost(`${API}/documents/uploads/session/${sessionId}/chunk`, form, (n) => {
          done.set(offset, Math.min(n, part.size));
          report();
        });
        done.set(offset, part.size);
        report();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  }
  const doc = await json<Document>('POST', `/documents/uploads/session/${sessionId}/finalize`);
  localStorage.removeItem(key);
  if (!doc) throw new ApiError(404, 'The upload session expired: pick the file again.');
  return doc;
}

export function upload(file: File, docsets: string[], onProgress: Progress, stats?: ChunkedStats): Promise<Document> {
  return file.size > CHUNKED_ABOVE ? uploadChunked(file, docsets, onProgress, stats) : uploadSmall(file, docsets, onProgress);
}
