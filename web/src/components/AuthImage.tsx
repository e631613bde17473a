import { useEffect, useRef, useState } from 'preact/hooks';
import { blob } from '../api/client.js';

/** An image behind the API key, fetched when it scrolls into view (lazy) and shown from a Blob URL. */
export function AuthImage({ src, alt, class: cls, onLoad }: { src: string; alt: string; class?: string; onLoad?: (img: HTMLImageElement) => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const holder = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    const el = holder.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      blob(src).then((b) => {
        if (cancelled) return;
        made = URL.createObjectURL(b);
        setUrl(made);
      }, () => undefined);
    }, { rootMargin: '200px' });
    io.observe(el);
    return () => {
      cancelled = true;
      io.disconnect();
      if (made) URL.revokeObjectURL(made);
    };
  }, [src]);
  return (
    <span ref={holder} class={`img-holder ${cls ?? ''}`}>
      {url ? <img src={url} alt={alt} onLoad={(e) => onLoad?.(e.currentTarget as HTMLImageElement)} /> : <span class="img-loading">Loading {alt}…</span>}
    </span>
  );
}
