export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div class="progress-row">
      <div class="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div class="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <span class="progress-text">{pct}%</span>
    </div>
  );
}
