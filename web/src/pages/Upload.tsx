import { useState } from 'preact/hooks';
import { upload, type ChunkedStats } from '../api/upload.js';
import type { Docset } from '../api/types.js';
import { ProgressBar } from '../components/Progress.js';

interface Item { key: string; name: string; sent: number; total: number; state: string; stats: ChunkedStats }

/** Files from a drop: folders are walked (webkitGetAsEntry). */
async function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (!entries.length) return [...dt.files];
  const out: File[] = [];
  const walk = async (e: FileSystemEntry): Promise<void> => {
    if (e.isFile) out.push(await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej)));
    else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const c of batch) await walk(c);
      }
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

export function UploadPanel({ docsets, onUploaded }: { docsets: Docset[]; onUploaded: () => void }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const update = (key: string, patch: Partial<Item>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const start = (files: File[]) => {
    for (const file of files) {
      const key = `${file.name}-${file.size}-${Math.random()}`;
      const stats: ChunkedStats = { chunksSent: 0, resumed: false };
      setItems((all) => [...all, { key, name: file.name, sent: 0, total: file.size, state: 'uploading', stats }]);
      upload(file, chosen, (sent, total) => update(key, { sent, total }), stats).then(
        () => {
          update(key, { state: 'done', stats: { ...stats } });
          onUploaded();
        },
        (err: Error) => update(key, { state: `failed: ${err.message} (pick the file again to resume)`, stats: { ...stats } }),
      );
    }
  };

  return (
    <section class="panel upload" aria-labelledby="upload-h">
      <h2 id="upload-h">Upload</h2>
      <fieldset>
        <legend>Into docset (several: the document is classified into one of them)</legend>
        {docsets.length === 0 && <p class="hint">No docsets yet: documents go to the workspace.</p>}
        {docsets.map((d) => (
          <label key={d.id} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(d.id)}
              onChange={(e) => setChosen((c) => ((e.target as HTMLInputElement).checked ? [...c, d.id] : c.filter((x) => x !== d.id)))}
            />
            {d.name}
          </label>
        ))}
      </fieldset>
      <div
        class={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={async (e) => {
          e.preventDefault();
          setOver(false);
          if (e.dataTransfer) start(await droppedFiles(e.dataTransfer));
        }}
      >
        <p>Drop files or a folder here, or</p>
        <label for="file-input" class="button">Choose files</label>
        <input id="file-input" class="visually-hidden" type="file" multiple onChange={(e) => {
          const input = e.target as HTMLInputElement;
          start([...(input.files ?? [])]);
          input.value = '';
        }} />
      </div>
      <ul class="uploads" aria-live="polite">
        {items.map((i) => (
          <li key={i.key} data-upload={i.name} data-state={i.state.split(':')[0]} data-chunks-sent={i.stats.chunksSent} data-resumed={String(i.stats.resumed)}>
            <span class="name">{i.name}</span>
            <ProgressBar value={i.sent} max={i.total} label={`Upload of ${i.name}`} />
            <span class="state">{i.state}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
