/** A time of the API (ISO 8601, UTC) in the reader's own zone and words. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A step's delay in words: "at once", "5 minutes", "1 day 2 hours". */
export function formatDelay(seconds: number): string {
  if (seconds === 0) return 'at once';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.join(' ');
}
