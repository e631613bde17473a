import type { TextItem } from '../../../document/pages.js';

/** An axis-aligned rectangle in page pixels (300 DPI, top-left origin). */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function centerX(item: TextItem): number {
  return item.x + item.width / 2;
}

export function centerY(item: TextItem): number {
  return item.y + item.height / 2;
}
