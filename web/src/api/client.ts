import { getKey, signOut } from './session.js';

export const API = '/v1preview1';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** A path under /v1preview1, or a full URL the API returned (made relative to this origin). */
export function apiUrl(pathOrUrl: string): string {
  if (pathOrUrl.startsWith('http')) {
    const u = new URL(pathOrUrl);
    return u.pathname + u.search;
  }
  return pathOrUrl.startsWith('/v1preview1') ? pathOrUrl : API + pathOrUrl;
}

export function authHeaders(): Record<string, string> {
  const key = getKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

async function fail(r: Response): Promise<never> {
  if (r.status === 401) signOut();
  let detail = `${r.status} ${r.statusText}`;
  try {
    const body = (await r.json()) as { detail?: string; title?: string };
    detail = body.detail ?? body.title ?? detail;
  } catch {
    // not JSON
  }
  throw new ApiError(r.status, detail);
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = authHeaders();
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(apiUrl(path), { method, headers, body: payload ?? null });
  if (!r.ok) return fail(r);
  if (r.status === 204) return undefined as T;
  const ct = r.headers.get('content-type') ?? '';
  return (ct.includes('json') ? await r.json() : await r.text()) as T;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => request<T>('PUT', path, body);
export const patch = <T>(path: string, body: unknown) => request<T>('PATCH', path, body);
export const del = (path: string) => request<void>('DELETE', path);

/** Bytes of an authenticated resource (images, downloads) as a Blob. */
export async function blob(path: string): Promise<Blob> {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(apiUrl(path), { headers: authHeaders() });
    // A page image waiting past its workspace's turns is a 503 with retry-after: it will be drawn.
    if (r.status === 503 && attempt < 5) {
      const seconds = Number(r.headers.get('retry-after')) || 1;
      await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 30) * 1000));
      continue;
    }
    if (!r.ok) return fail(r);
    return r.blob();
  }
}

/** Saves an authenticated resource as a file (a Blob URL on a temporary link). */
export async function download(path: string, name: string) {
  const b = await blob(path);
  const url = URL.createObjectURL(b);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
