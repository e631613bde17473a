import { intFlag, parse } from './args.js';
import { CliUsageError } from './errors.js';
import { details, emit, table } from './output.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const USAGE =
  'webhooks ls [--target T] | webhooks get ID | webhooks create RECEIVER-URL --target Documents|Docset|Project [--target-id ID] [--event E]… [--secret S] | webhooks rm ID | webhooks deliveries ID [--limit N] | webhooks retry ID DELIVERY | webhooks test ID';

const row = (h: Json) => ({ id: h.id, target: h.target, targetId: h.targetId ?? '', receiver: h.webhookUrl, events: (h.events ?? []).join(',') || '(all)', secret: h.hasSecret ? 'yes' : '', disabled: h.disabled ? (h.disabledReason ?? 'yes') : '' });

export async function webhooks(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'ls':
    case 'list': {
      const p = parse(rest, { target: { type: 'string' }, 'target-id': { type: 'string' } }, 'webhooks ls [--target T] [--target-id ID] [--json]');
      const { items } = await p.client().all<Json>('/webhooks', 'webhooks', { target: p.values.target, targetId: p.values['target-id'], limit: 100 });
      emit(p.json, items, () => table(items.map(row)));
      return 0;
    }
    case 'get': {
      const p = parse(rest, {}, 'webhooks get ID [--json]', 1);
      const h = await p.client().get(`/webhooks/${encodeURIComponent(p.positionals[0]!)}`);
      emit(p.json, h, () => details({ ...row(h), created: h.createdAt, failingSince: h.failingSince ?? '' }));
      return 0;
    }
    case 'create': {
      const p = parse(
        rest,
        { target: { type: 'string' }, 'target-id': { type: 'string' }, event: { type: 'string', multiple: true }, secret: { type: 'string' } },
        'webhooks create RECEIVER-URL --target Documents|Docset|Project [--target-id ID] [--event E]… [--secret S] [--json]',
        1,
      );
      if (!p.values.target) throw new CliUsageError('webhooks create needs --target Documents|Docset|Project');
      const body: Json = { target: p.values.target, url: p.positionals[0] };
      if (p.values['target-id']) body.targetId = p.values['target-id'];
      if (p.values.event) body.events = p.values.event;
      if (p.values.secret) body.secret = p.values.secret;
      const h = await p.client().json('POST', '/webhooks', { json: body });
      emit(p.json, h, () => `created webhook ${h.id} (${h.target} -> ${h.webhookUrl})`);
      return 0;
    }
    case 'rm':
    case 'delete': {
      const p = parse(rest, {}, 'webhooks rm ID', 1);
      const id = p.positionals[0]!;
      await (await p.client().raw('DELETE', `/webhooks/${encodeURIComponent(id)}`)).arrayBuffer();
      emit(p.json, { id, deleted: true }, () => `deleted webhook ${id}`);
      return 0;
    }
    case 'deliveries': {
      const p = parse(rest, { limit: { type: 'string' } }, 'webhooks deliveries ID [--limit N] [--json]', 1);
      const limit = intFlag('limit', p.values.limit, 1) ?? 30;
      const { items } = await p.client().all<Json>(`/webhooks/${encodeURIComponent(p.positionals[0]!)}/deliveries`, 'deliveries', { limit: Math.min(limit, 100) }, limit);
      emit(p.json, items, () =>
        table(items.map((d: Json) => ({ id: d.id, type: d.type, state: d.state, attempts: d.attempts, status: d.statusCode ?? '', error: d.error ?? '', created: d.createdAt, nextRetry: d.nextRetryAt ?? '' }))),
      );
      return 0;
    }
    case 'retry': {
      const p = parse(rest, {}, 'webhooks retry ID DELIVERY [--json]', 2);
      const d = await p.client().json('POST', `/webhooks/${encodeURIComponent(p.positionals[0]!)}/deliveries/${encodeURIComponent(p.positionals[1]!)}/retry`);
      emit(p.json, d, () => `delivery ${d.id} is due again (${d.state})`);
      return 0;
    }
    case 'test': {
      const p = parse(rest, {}, 'webhooks test ID [--json]', 1);
      const r = await p.client().json('POST', `/webhooks/${encodeURIComponent(p.positionals[0]!)}/test`);
      emit(p.json, r, () => (r.delivered ? `delivered: ${r.statusCode} in ${r.durationMs} ms` : `not delivered: ${r.error ?? r.statusCode}`));
      return r.delivered ? 0 : 1;
    }
    default:
      throw new CliUsageError(`usage: quire ${USAGE}`);
  }
}
