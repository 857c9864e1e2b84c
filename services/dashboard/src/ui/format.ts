/**
 * Words for what the API gives in codes and ISO times: dates in the reader's own
 * time zone, catalog labels, and a deferral's reason (docs/dashboard.md, "Leads").
 */

const DATE_TIME = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'long',
  hourCycle: 'h23',
});

/** An ISO time as the reader's local date and time ("Nov 27, 2026, 15:04:05 UTC"); '—' for none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

/** A catalog label in words: `contact_deferred` → "Contact deferred". */
export function labelInWords(label: string): string {
  const words = label.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** USPS codes of the states and territories the contact-window rules name. */
const STATE_NAMES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  PR: 'Puerto Rico',
  GU: 'Guam',
  VI: 'U.S. Virgin Islands',
  AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
};

/** A rule label of the contact-window reasons in words: `TX` → "Texas rules". */
function ruleInWords(label: string): string {
  if (label === 'CONTACT_HOURS') return 'the contact hours of this leadhook';
  const state = STATE_NAMES[label];
  return state ? `${state} rules` : `${label} rules`;
}

/** A time zone name the browser knows ("America/Chicago"), else undefined. */
function knownZone(name: string | undefined): string | undefined {
  if (!name) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}

/** "09:00 local time" (and the day, when not the deferral's own) in `zone`. */
function wallTime(at: Date, zone: string, from: Date): string {
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'long',
    month: 'short',
    day: 'numeric',
  });
  const local = `${time} local time`;
  return day.format(at) === day.format(from) ? local : `${local} on ${day.format(at)}`;
}

export interface Deferral {
  /** "Waiting for the contact window: 09:00 local time (America/Chicago), Texas rules". */
  summary: string;
  /** The worker's own reason, as it wrote it ("07:30 Friday in America/Chicago is outside TX 09:00-21:00"). */
  reason: string | undefined;
}

/**
 * A `contact_deferred` activity in words. Its `data` is what the playbook worker
 * writes (services/playbook-worker/src/step/step.runner.ts, defer): `until` (when the
 * window opens), `step`, and `reason` from the contact-window check
 * (packages/contact-window: "<hh:mm> <Day> in <zone> is outside <rule> <hh:mm-hh:mm>",
 * "<holiday> in <zone>: <rule> allows no contact on holidays", "<Day> in <zone>: <rule>
 * allows no contact that day", "<n> attempts in the last 24 h; <rule> allows at most <m>").
 * The local time is in the zone the reason names; without one, the reader's own.
 */
export function deferralInWords(data: Record<string, unknown>, occurredAt: string): Deferral {
  const reason = typeof data.reason === 'string' && data.reason ? data.reason : undefined;
  const until = typeof data.until === 'string' ? new Date(data.until) : undefined;
  const zone = knownZone(reason?.match(/ in ([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+)/)?.[1]);
  const rule = reason?.match(/\b([A-Z]{2}|CONTACT_HOURS) (?:\d\d:\d\d-\d\d:\d\d|allows)/)?.[1];
  let summary = 'Waiting for the contact window';
  if (until && !Number.isNaN(until.getTime())) {
    summary += zone
      ? `: ${wallTime(until, zone, new Date(occurredAt))} (${zone})`
      : ` until ${formatDateTime(until.toISOString())} (your time)`;
  }
  if (rule) summary += `, ${ruleInWords(rule)}`;
  return { summary, reason };
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
