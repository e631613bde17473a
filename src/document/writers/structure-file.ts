import { gunzipSync } from 'node:zlib';
import { cellsByLeafIndex, type StructureModel, type TableCell } from '../structure.js';
import { tagProperties } from '../tag.js';
import type { ValueToTag } from '../properties.js';
import { renderDgml } from './dgml.js';
import { renderMarkdown, renderText } from './text.js';

/** The files written from a document's structure model: DGML, plain text, Markdown. */
export type StructureFileFormat = 'dgml' | 'text' | 'markdown';

export const STRUCTURE_FILE_FORMATS: readonly StructureFileFormat[] = ['dgml', 'text', 'markdown'];

/** What a file is written from, besides the structure: everything DGML names of the document's docset. */
export type StructureFileRequest =
  | {
      format: 'dgml';
      /** Workspace name or id, in the `docset` namespace URI. */
      workspace: string;
      docsetName: string;
      version: string;
      /** The docset's property values to tag as `docset:{labelId}` (none outside a docset). */
      values: ValueToTag[];
    }
  | { format: 'text' | 'markdown' };

/** The file, from the structure model (tagging property values changes the model it is given). */
export function writeStructureFile(structure: StructureModel, request: StructureFileRequest): string {
  if (request.format !== 'dgml') return request.format === 'markdown' ? renderMarkdown(structure) : renderText(structure);
  return renderDgml(structure, {
    workspace: request.workspace,
    docsetName: request.docsetName,
    version: request.version,
    labelCells: request.values.length ? labelCellsOf(structure, request.values) : undefined,
  });
}

/** The file as UTF-8 bytes, from the structure as stored (gzip of its JSON). */
export function writeStructureFileFromStored(gz: Uint8Array, request: StructureFileRequest): Buffer {
  const structure = JSON.parse(gunzipSync(gz).toString('utf8')) as StructureModel;
  return Buffer.from(writeStructureFile(structure, request), 'utf8');
}

/** Tags the values in the structure; returns the label cells of form tables to tag as `docset:{labelId}-cell`. */
function labelCellsOf(structure: StructureModel, values: readonly ValueToTag[]): Map<TableCell, string> {
  const labelCells = new Map<TableCell, string>();
  const labelLeaves = tagProperties(structure, values);
  if (labelLeaves.size === 0) return labelCells;
  const cells = cellsByLeafIndex(structure.nodes);
  for (const [leaf, labelId] of labelLeaves) {
    const cell = cells.get(leaf);
    if (cell) labelCells.set(cell, labelId);
  }
  return labelCells;
}
