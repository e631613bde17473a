import { useEffect, useRef, useState } from 'preact/hooks';

const FIRST_MS = 1000;
const MAX_MS = 10_000;

/**
 * A counter that goes up while `active`, first after 1 s then backing off to 10 s; back to 1 s once
 * inactive. Effects that depend on it re-fetch what is still changing.
 */
export function usePollTick(active: boolean): number {
  const [tick, setTick] = useState(0);
  const delay = useRef(FIRST_MS);
  useEffect(() => {
    if (!active) {
      delay.current = FIRST_MS;
      return;
    }
    const t = setTimeout(() => {
      delay.current = Math.min(MAX_MS, delay.current * 1.5);
      setTick((n) => n + 1);
    }, delay.current);
    return () => clearTimeout(t);
  }, [active, tick]);
  return tick;
}
