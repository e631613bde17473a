import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import { DomainError, invalid } from '../../domain/errors.js';
import { Base64Decoder } from './base64.js';

export interface StreamedObjectOptions {
  /** The member whose string value is base64: decoded and written to the sink as it arrives. */
  field: string;
  /** The whole body, in bytes (413 past it). */
  maxBytes: number;
  /** The other members together, in characters (413 past it): they are held in memory. */
  maxOtherChars: number;
  /** Called when the streamed value begins, with the members read before it; returns the sink. */
  onStream: (before: Record<string, unknown>) => Promise<Writable>;
  tooLarge: () => DomainError;
}

/** The sink stopped taking bytes (its consumer failed); the consumer's error says why. */
export class SinkClosedError extends Error {}

const enum S {
  BeforeObject,
  BeforeKey,
  Key,
  BeforeColon,
  BeforeValue,
  Value,
  Stream,
  AfterValue,
  End,
}

const WS = new Set([' ', '\t', '\n', '\r']);
const notJson = (why: string) => invalid(`The request body is not valid JSON: ${why}.`);

/**
 * Reads a JSON object from a byte stream, holding in memory every member except `field`, whose
 * string value is base64-decoded on the fly into the sink (with backpressure). Memory use is bounded
 * by `maxOtherChars` plus one chunk, whatever the size of the streamed value.
 */
export async function readStreamedObject(source: AsyncIterable<Buffer>, opts: StreamedObjectOptions): Promise<{ fields: Record<string, unknown>; streamed: boolean }> {
  const fields: Record<string, unknown> = {};
  const text = new StringDecoder('utf8');
  let state = S.BeforeObject as S;
  let raw = '';
  let key = '';
  let escaped = false;
  let inString = false;
  let depth = 0;
  let afterComma = false;
  let other = 0;
  let bytes = 0;
  let sink: Writable | undefined;
  let decoder: Base64Decoder | undefined;
  let escape: string | null = null;

  const write = async (buf: Buffer) => {
    if (!buf.length) return;
    if (sink!.destroyed || sink!.writableEnded) throw new SinkClosedError();
    if (!sink!.write(buf)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          sink!.off('drain', done);
          sink!.off('close', done);
          resolve();
        };
        sink!.on('drain', done);
        sink!.on('close', done);
      });
      if (sink!.destroyed) throw new SinkClosedError();
    }
  };

  const store = (k: string, v: unknown) => {
    if (Object.hasOwn(fields, k) || (k === opts.field && sink)) throw invalid(`body field "${k}" is given twice.`);
    fields[k] = v;
  };

  const finishValue = () => {
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw notJson(`the value of "${key}" is malformed`);
    }
    store(key, v);
    raw = '';
  };

  const consume = async (chunk: string) => {
    let i = 0;
    while (i < chunk.length) {
      const c = chunk[i]!;
      switch (state) {
        case S.BeforeObject:
          if (c === '{') state = S.BeforeKey;
          else if (!WS.has(c)) throw invalid('The body must be a JSON object.');
          i++;
          break;
        case S.BeforeKey:
          if (c === '"') {
            state = S.Key;
            raw = '';
            afterComma = false;
          } else if (c === '}' && !afterComma) state = S.End;
          else if (!WS.has(c)) throw notJson('a member name was expected');
          i++;
          break;
        case S.Key:
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') {
            try {
              key = JSON.parse(`"${raw}"`) as string;
            } catch {
              throw notJson('a member name is malformed');
            }
            raw = '';
            state = S.BeforeColon;
            i++;
            break;
          }
          raw += c;
          if (++other > opts.maxOtherChars) throw opts.tooLarge();
          i++;
          break;
        case S.BeforeColon:
          if (c === ':') state = S.BeforeValue;
          else if (!WS.has(c)) throw notJson(`":" was expected after "${key}"`);
          i++;
          break;
        case S.BeforeValue:
          if (WS.has(c)) {
            i++;
            break;
          }
          if (key === opts.field && c === '"') {
            if (sink) throw invalid(`body field "${key}" is given twice.`);
            sink = await opts.onStream({ ...fields });
            decoder = new Base64Decoder(opts.field);
            state = S.Stream;
            i++;
            break;
          }
          state = S.Value;
          raw = '';
          inString = false;
          escaped = false;
          depth = 0;
          break;
        case S.Value: {
          if (inString) {
            if (escaped) escaped = false;
            else if (c === '\\') escaped = true;
            else if (c === '"') inString = false;
          } else if (c === '"') inString = true;
          else if (c === '{' || c === '[') depth++;
          else if (c === '}' || c === ']') {
            if (depth === 0) {
              finishValue();
              state = S.AfterValue;
              break; // the "}" is read again as the end of the object
            }
            depth--;
          } else if (c === ',' && depth === 0) {
            finishValue();
            state = S.AfterValue;
            break;
          }
          raw += c;
          if (++other > opts.maxOtherChars) throw opts.tooLarge();
          i++;
          break;
        }
        case S.Stream: {
          if (escape !== null) {
            // Inside a \uXXXX escape, or just after the backslash.
            escape += c;
            i++;
            if (escape.length === 1 && escape !== 'u') {
              const ch = ({ '/': '/', n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\', b: '\b', f: '\f' } as Record<string, string>)[escape];
              if (ch === undefined) throw notJson(`"\\${escape}" is not an escape`);
              await write(decoder!.push(ch));
              escape = null;
            } else if (escape.length === 5) {
              if (!/^u[0-9a-fA-F]{4}$/.test(escape)) throw notJson(`"\\${escape}" is not an escape`);
              await write(decoder!.push(String.fromCharCode(parseInt(escape.slice(1), 16))));
              escape = null;
            }
            break;
          }
          let end = i;
          while (end < chunk.length && chunk[end] !== '"' && chunk[end] !== '\\') end++;
          if (end > i) await write(decoder!.push(chunk.slice(i, end)));
          i = end;
          if (i === chunk.length) break;
          if (chunk[i] === '\\') escape = '';
          else {
            await write(decoder!.end());
            sink!.end();
            state = S.AfterValue;
          }
          i++;
          break;
        }
        case S.AfterValue:
          if (c === ',') {
            state = S.BeforeKey;
            afterComma = true;
            i++;
            break;
          }
          if (c === '}') state = S.End;
          else if (!WS.has(c)) throw notJson('"," or "}" was expected');
          i++;
          break;
        case S.End:
          if (!WS.has(c)) throw notJson('there is more after the object');
          i++;
          break;
      }
    }
  };

  try {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) throw opts.tooLarge();
      await consume(text.write(chunk));
    }
    await consume(text.end());
    if (state !== S.End) throw notJson('it ends before the object does');
  } catch (err) {
    // A sink already ended has its bytes; its consumer settles on its own.
    if (sink && !sink.writableEnded) sink.destroy(err instanceof Error ? err : undefined);
    throw err;
  }
  return { fields, streamed: sink !== undefined };
}
