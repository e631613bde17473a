declare module 'word-extractor' {
  interface TextOptions {
    /** Curly quotes and dashes as ASCII (word-extractor's default: true). */
    filterUnicode?: boolean;
  }
  interface ExtractedDocument {
    getBody(options?: TextOptions): string;
    getHeaders(options?: TextOptions & { includeFooters?: boolean }): string;
    getFooters(options?: TextOptions): string;
    getFootnotes(options?: TextOptions): string;
    getEndnotes(options?: TextOptions): string;
    getTextboxes(options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}
