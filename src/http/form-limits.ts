import { DomainError } from '../domain/errors.js';

/** A text part typed application/json whose bytes are not JSON (the multipart parser names no field). */
export const INVALID_JSON_FIELD = 'A form field sent with Content-Type application/json is not valid JSON (the metadata part is {"metadata": [{"key": …, "value": …}]}).';

/** The multipart limits of every upload route (the file size is each route's own). */
export const FORM_LIMITS = { files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 30, headerPairs: 100 };

/**
 * The Problem for a multipart limit the form ran into, or undefined for any other error.
 * `fileTooLarge` is what an overlong file means on the route (a document, an artifact, a chunk).
 */
export function formLimitError(err: unknown, fileTooLarge: () => DomainError): DomainError | undefined {
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge();
    case 'FST_FIELDS_LIMIT':
      return new DomainError('too-large', `The form has more than ${FORM_LIMITS.fields} text fields.`);
    case 'FST_FILES_LIMIT':
      return new DomainError('too-large', 'The form has more than one file part: send one file, in the part named "file", last.');
    case 'FST_PARTS_LIMIT':
      return new DomainError('too-large', `The form has more than ${FORM_LIMITS.parts} parts.`);
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new DomainError('invalid', INVALID_JSON_FIELD);
    default:
      return undefined;
  }
}

/**
 * The text of a form field. A part sent with `Content-Type: application/json` (`curl -F
 * 'metadata={…};type=application/json'`, and how most HTTP libraries send a JSON part) arrives parsed
 * by the multipart parser: it is the same text again, so a typed part and an untyped one with the
 * same bytes mean the same.
 */
export function fieldText(part: { fieldname: string; value: unknown }): string {
  if (typeof part.value === 'string') return part.value;
  try {
    return JSON.stringify(part.value) ?? '';
  } catch {
    // Nested too deeply to write back (thousands of levels): no field of this API is anything like it.
    throw new DomainError('invalid', `The form field "${part.fieldname}" sent as application/json is nested too deeply.`);
  }
}
