import type { DocStatus } from '../api/types.js';

export function StatusBadge({ status }: { status: DocStatus }) {
  return <span class={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}
