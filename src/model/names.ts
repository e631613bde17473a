/** The rules every document name follows, whether uploaded or taken from a ZIP member. */
export const MAX_NAME_LENGTH = 1024;

/** Why `name` cannot name a document, or null when it can. */
export function nameProblem(name: string): string | null {
  if (!name) return 'The file part has no file name.';
  if (name.length > MAX_NAME_LENGTH) return `File names are limited to ${MAX_NAME_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The file name contains control characters.';
  return null;
}
