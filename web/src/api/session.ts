/** The API key of this tab (sessionStorage) and the sign-out signal a 401 raises. */
const KEY = 'quire.apiKey';
type Listener = () => void;
const listeners = new Set<Listener>();

export function getKey(): string | null {
  return sessionStorage.getItem(KEY);
}
export function setKey(key: string) {
  sessionStorage.setItem(KEY, key);
  listeners.forEach((l) => l());
}
export function signOut() {
  sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}
export function onSessionChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
