import type { StructureModel } from '../structure.js';

export interface DgmlContext {
  /** Workspace name or id, in the `docset` namespace URI. */
  workspace: string;
  /** The docset's name; `Unassigned` for documents outside any docset. */
  docsetName: string;
  /** Quire's version (`cp:version`). */
  version: string;
}

/** The document as DGML (../shared/docs/DGML.md): BOM, declaration, prefixed elements, leaves only hold text. */
export function renderDgml(model: StructureModel, ctx: DgmlContext): string {
  void model;
  void ctx;
  return '';
}
