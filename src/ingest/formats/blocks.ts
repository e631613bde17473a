/** Text extracted from a format without pages, in reading order, before it is laid out. */
export interface Block {
  kind: 'heading' | 'paragraph' | 'list-item' | 'line';
  text: string;
  /** 1..6 for headings. */
  level?: number;
}

export function blocksText(blocks: Block[]): string {
  return blocks.map((b) => b.text).join('\n');
}
