/** The periods a figures screen offers, in days ending today (UTC). */
export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 30;

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The API's `from`/`to` for the last `days` UTC days, today included. */
export function periodRange(days: Period, now = Date.now()): { from: string; to: string } {
  return { from: day(now - (days - 1) * 86_400_000), to: day(now) };
}

/** "Period: Last 30 days", a select the figures follow. */
export function PeriodChooser({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Period;
  onChange: (period: Period) => void;
}) {
  return (
    <div class="field-inline">
      <label for={id}>Period</label>
      <select
        id={id}
        value={String(value)}
        onChange={(event) => onChange(Number(event.currentTarget.value) as Period)}
      >
        {PERIODS.map((days) => (
          <option key={days} value={String(days)}>
            Last {days} days
          </option>
        ))}
      </select>
    </div>
  );
}
