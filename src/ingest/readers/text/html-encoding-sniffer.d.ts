declare module 'html-encoding-sniffer' {
  interface SniffOptions {
    xml?: boolean;
    /** The charset a transport (an HTTP Content-Type) declared: it overrides everything but a BOM. */
    transportLayerEncodingLabel?: string;
    /** What is answered when nothing in or around the bytes names an encoding (default windows-1252). */
    defaultEncoding?: string;
    /** How many bytes the <meta> prescan reads (default 1024). */
    maxPrescanBytes?: number;
  }
  /** The WHATWG encoding sniffing algorithm: a canonical encoding name. */
  export default function htmlEncodingSniffer(bytes: Uint8Array, options?: SniffOptions): string;
}
