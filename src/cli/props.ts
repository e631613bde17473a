import { parse } from './args.js';
import { resolveDocset } from './docsets.js';
import { CliUsageError } from './errors.js';
import { emit, table } from './output.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const USAGE =
  'props ls DOCSET | props add DOCSET LABEL | props rm DOCSET PROPERTY-ID|LABEL | props get DOCSET DOCUMENT | props set DOCSET DOCUMENT LABEL VALUE | props unset DOCSET DOCUMENT LABEL';

const valueRow = (v: Json) => ({
  label: v.label,
  value: v.value,
  source: v.source ?? '',
  confidence: typeof v.confidence === 'number' ? v.confidence.toFixed(2) : '',
  page: v.location?.page ?? '',
});

export async function props(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'ls':
    case 'list': {
      const p = parse(rest, {}, 'props ls DOCSET [--json]', 1);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      const { properties } = await c.get(`/docsets/${d.id}/properties`);
      emit(p.json, properties, () => table(properties.map((x: Json) => ({ id: x.id, label: x.label, labelId: x.labelId, created: x.createdAt }))));
      return 0;
    }
    case 'add':
    case 'create': {
      const p = parse(rest, {}, 'props add DOCSET LABEL [--json]', 2);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      const made = await c.json('POST', `/docsets/${d.id}/properties`, { json: { label: p.positionals[1] } });
      emit(p.json, made, () => `created property ${made.label} (${made.id}) in docset ${d.name}; its values are being extracted`);
      return 0;
    }
    case 'rm':
    case 'delete': {
      const p = parse(rest, {}, 'props rm DOCSET PROPERTY-ID|LABEL', 2);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      const { properties } = await c.get(`/docsets/${d.id}/properties`);
      const which = p.positionals[1]!;
      const prop = properties.find((x: Json) => x.id === which) ?? properties.find((x: Json) => x.label === which);
      const id = prop?.id ?? which;
      await (await c.raw('DELETE', `/docsets/${d.id}/properties/${encodeURIComponent(id)}`)).arrayBuffer();
      emit(p.json, { id, deleted: true }, () => `deleted property ${prop?.label ?? id} (${id})`);
      return 0;
    }
    case 'get':
    case 'values': {
      const p = parse(rest, {}, 'props get DOCSET DOCUMENT [--json]', 2);
      const c = p.client();
      const d = await resolveDocset(c, p.positionals[0]!);
      const { properties } = await c.get(`/docsets/${d.id}/document-properties/${encodeURIComponent(p.positionals[1]!)}`);
      emit(p.json, properties, () => table(properties.map(valueRow)));
      return 0;
    }
    case 'set':
    case 'unset': {
      const set = sub === 'set';
      const p = parse(rest, {}, set ? 'props set DOCSET DOCUMENT LABEL VALUE [--json]' : 'props unset DOCSET DOCUMENT LABEL [--json]', set ? 4 : 3);
      const c = p.client();
      const [docset, document, label, value] = p.positionals as [string, string, string, string | undefined];
      const d = await resolveDocset(c, docset);
      const v = await c.json('POST', `/docsets/${d.id}/document-properties/${encodeURIComponent(document)}`, { json: { label, value: set ? value : null } });
      emit(p.json, v, () => (set ? `${v.label} = ${JSON.stringify(v.value)} (manual) for document ${document}` : `${v.label} handed back to extraction for document ${document}`));
      return 0;
    }
    default:
      throw new CliUsageError(`usage: quire ${USAGE}`);
  }
}
