import { useEffect, useState } from 'preact/hooks';
import { del, get, post } from '../api/client.js';
import type { Delivery, Webhook } from '../api/types.js';

function Deliveries({ hook }: { hook: Webhook }) {
  const [list, setList] = useState<Delivery[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    get<{ deliveries: Delivery[] }>(`/webhooks/${hook.id}/deliveries?limit=20`).then((r) => setList(r.deliveries), () => undefined);
  }, [hook.id, tick]);
  const retry = async (d: Delivery) => {
    await post(`/webhooks/${hook.id}/deliveries/${d.id}/retry`);
    setTick((n) => n + 1);
  };
  return (
    <div>
      <button type="button" class="small" onClick={() => setTick((n) => n + 1)}>Refresh deliveries</button>
      <button type="button" class="small" onClick={async () => { await post(`/webhooks/${hook.id}/test`); setTick((n) => n + 1); }}>Send test</button>
      <ul class="deliveries">
        {list.map((d) => (
          <li key={d.id} data-delivery={d.id} data-attempts={Number(d.attempts ?? 0)}>
            {String(d.type ?? '')} · {String(d.state ?? '')} · {Number(d.attempts ?? 0)} attempts
            <button type="button" class="small" onClick={() => void retry(d)}>Retry</button>
          </li>
        ))}
        {!list.length && <li class="hint">No deliveries.</li>}
      </ul>
    </div>
  );
}

export function WebhooksPage() {
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [form, setForm] = useState({ target: 'Documents', url: '', targetId: '' });
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    get<{ webhooks: Webhook[] }>('/webhooks?limit=100').then((r) => setHooks(r.webhooks), (e: Error) => setError(e.message));
  }, [tick]);
  const create = async (e: Event) => {
    e.preventDefault();
    try {
      await post('/webhooks', { target: form.target, url: form.url, ...(form.targetId ? { targetId: form.targetId } : {}) });
      setError('');
      setTick((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <div class="stack">
      <section class="panel" aria-labelledby="newhook-h">
        <h2 id="newhook-h">New webhook</h2>
        <form class="filters" onSubmit={create}>
          <label>Target<select value={form.target} onChange={set('target')}>{['Documents', 'Docset', 'Project'].map((t) => <option key={t}>{t}</option>)}</select></label>
          <label>Target id (docset or project)<input value={form.targetId} onInput={set('targetId')} /></label>
          <label>Receiver URL<input id="webhook-url" type="url" required value={form.url} onInput={set('url')} /></label>
          <button type="submit">Create webhook</button>
        </form>
        {error && <p role="alert" class="error">{error}</p>}
      </section>
      <section class="panel" aria-labelledby="hooks-h">
        <h2 id="hooks-h">Webhooks</h2>
        <ul class="hooks">
          {hooks.map((h) => (
            <li key={h.id} data-webhook={h.webhookUrl}>
              <strong>{h.target}</strong> → {h.webhookUrl} {h.disabled ? '(disabled)' : ''}
              <button type="button" class="small danger" onClick={async () => { await del(`/webhooks/${h.id}`); setTick((n) => n + 1); }}>Delete</button>
              <Deliveries hook={h} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
