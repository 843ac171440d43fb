import * as rruleModule from 'rrule';

/**
 * Recurrence rules for periodic switchboard execution (spec 002 §3 `periodic_execution_rule`, §5
 * "Recurrence", §9). Pure functions without I/O, used by the server to compute the next run and by
 * the browser's recurrence editor. The stored text is an RFC 5545 RRULE value such as
 * `FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0`; times are wall-clock times in Europe/Berlin.
 */

/** spec 002 §9: the one time zone of recurrence rules. */
export const RECURRENCE_TIME_ZONE = 'Europe/Berlin';

export const RECURRENCE_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

/** Weekday codes of RFC 5545, Monday first. */
export const RECURRENCE_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type RecurrenceWeekday = (typeof RECURRENCE_WEEKDAYS)[number];

/** Our own limit (not the spec's): keeps every computed date inside the range rrule handles. */
export const MAX_RECURRENCE_INTERVAL = 1000;

/**
 * A recurrence rule as the editor holds it. Which fields a frequency uses (the others are dropped
 * by normalizeRecurrence): hourly → minute; daily → hour, minute; weekly → weekdays, hour, minute;
 * monthly and yearly → months, monthday, hour, minute. `interval` applies to all.
 */
export interface RecurrenceRule {
  freq: RecurrenceFrequency;
  /** Every n-th hour, day, week, month or year; default 1, at most MAX_RECURRENCE_INTERVAL. */
  interval?: number;
  /** Weekly: the days to run on; none picked means Monday. */
  weekdays?: RecurrenceWeekday[];
  /** Monthly and yearly: the months (1-12) to run in; none chosen means January. */
  months?: number[];
  /** Monthly: 1-31 (months without that day are skipped); yearly: 1 to the chosen month's length, February 28. Default 1. */
  monthday?: number;
  /** 0-23, default 0. */
  hour?: number;
  /** 0-59, default 0. */
  minute?: number;
}

/** Translation keys (the plugin's i18n `recurrence.*` texts) naming what is wrong with a rule. */
export type RecurrenceErrorKey =
  | 'recurrence.invalid'
  | 'recurrence.unsupported'
  | 'recurrence.freq'
  | 'recurrence.interval'
  | 'recurrence.weekday'
  | 'recurrence.month'
  | 'recurrence.monthday'
  | 'recurrence.hour'
  | 'recurrence.minute';

/** Thrown by parseRecurrence, normalizeRecurrence, formatRecurrence and nextRun for a rule a user wrote wrongly. */
export class RecurrenceError extends Error {
  constructor(
    readonly key: RecurrenceErrorKey,
    readonly detail = '',
  ) {
    super(detail ? `${key}: ${detail}` : key);
    this.name = 'RecurrenceError';
  }
}

// rrule 2.8.1 has no "exports" map: bundlers take its ES module ("module" field, named exports),
// Node's ES loader its webpack bundle ("main"), which shows only a default export.
const rruleExports: Record<string, unknown> = rruleModule;
const { RRule } = ('RRule' in rruleExports ? rruleModule : rruleExports.default) as typeof rruleModule;

const RRULE_FREQ = {
  daily: RRule.DAILY,
  weekly: RRule.WEEKLY,
  monthly: RRule.MONTHLY,
  yearly: RRule.YEARLY,
} as Record<RecurrenceFrequency, rruleModule.Frequency>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** Days per month with February 28 (spec 002 §5: the yearly day-of-month limit). */
const MONTH_LENGTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Where intervals > 1 count from: Monday 2000-01-03 00:00 wall-clock (days, weeks), January 2000 (months), 2000 (years). */
const ANCHOR_DAY = Date.UTC(2000, 0, 3);
/** Hourly rules count real hours from the anchor day's midnight in Berlin (CET, +01:00). */
const ANCHOR_HOUR = ANCHOR_DAY - HOUR;

const PARTS = ['FREQ', 'INTERVAL', 'BYMONTH', 'BYMONTHDAY', 'BYDAY', 'BYHOUR', 'BYMINUTE', 'WKST'] as const;
type Part = (typeof PARTS)[number];
/** The RRULE parts each frequency may carry; a part beyond them would change the schedule, so it is refused. */
const PARTS_OF: Record<RecurrenceFrequency, Part[]> = {
  hourly: ['BYMINUTE'],
  daily: ['BYHOUR', 'BYMINUTE'],
  weekly: ['BYDAY', 'BYHOUR', 'BYMINUTE'],
  monthly: ['BYMONTH', 'BYMONTHDAY', 'BYHOUR', 'BYMINUTE'],
  yearly: ['BYMONTH', 'BYMONTHDAY', 'BYHOUR', 'BYMINUTE'],
};

/**
 * Reads the stored text (optionally prefixed `RRULE:`, names and values case-insensitive) into a
 * normalized rule. Throws RecurrenceError: 'recurrence.invalid' for text that is not an RRULE value,
 * 'recurrence.unsupported' for RRULE parts this model cannot hold (COUNT, UNTIL, BYSETPOS, WKST other
 * than MO, or a part the frequency does not use), otherwise the key of the offending field (a list
 * or a negative number where one value is expected, an ordinal weekday like 1MO, a value out of range).
 */
export function parseRecurrence(text: string): RecurrenceRule {
  const body = String(text ?? '')
    .trim()
    .toUpperCase()
    .replace(/^RRULE:/, '');
  if (!body) throw new RecurrenceError('recurrence.invalid', 'empty rule');
  const parts = new Map<Part, string>();
  for (const piece of body.split(';')) {
    const match = /^([A-Z]+)=([A-Z0-9,+-]+)$/.exec(piece);
    if (!match) throw new RecurrenceError('recurrence.invalid', piece);
    const [, name, value] = match;
    if (!(PARTS as readonly string[]).includes(name)) throw new RecurrenceError('recurrence.unsupported', name);
    if (parts.has(name as Part)) throw new RecurrenceError('recurrence.invalid', `${name} given twice`);
    parts.set(name as Part, value);
  }
  const freqText = parts.get('FREQ');
  if (!freqText) throw new RecurrenceError('recurrence.invalid', 'FREQ missing');
  const freq = freqText.toLowerCase() as RecurrenceFrequency;
  if (!RECURRENCE_FREQUENCIES.includes(freq)) throw new RecurrenceError('recurrence.freq', freqText);
  for (const name of parts.keys()) {
    if (['FREQ', 'INTERVAL', 'WKST'].includes(name) || PARTS_OF[freq].includes(name)) continue;
    throw new RecurrenceError('recurrence.unsupported', `${name} with FREQ=${freqText}`);
  }
  // Weeks start on Monday (the RFC default); another WKST would move weekly intervals.
  if (parts.has('WKST') && parts.get('WKST') !== 'MO') throw new RecurrenceError('recurrence.unsupported', 'WKST');

  const rule: RecurrenceRule = { freq };
  const single = (name: Part, key: RecurrenceErrorKey) => {
    const value = parts.get(name);
    return value === undefined ? undefined : parseNumber(value, key);
  };
  rule.interval = single('INTERVAL', 'recurrence.interval');
  rule.monthday = single('BYMONTHDAY', 'recurrence.monthday');
  rule.hour = single('BYHOUR', 'recurrence.hour');
  rule.minute = single('BYMINUTE', 'recurrence.minute');
  const months = parts.get('BYMONTH');
  if (months !== undefined) rule.months = months.split(',').map((m) => parseNumber(m, 'recurrence.month'));
  const days = parts.get('BYDAY');
  if (days !== undefined) rule.weekdays = days.split(',') as RecurrenceWeekday[];
  return normalizeRecurrence(rule);
}

/** A plain decimal number; a list, a sign or anything else throws `key`. */
function parseNumber(value: string, key: RecurrenceErrorKey): number {
  if (!/^\d{1,4}$/.test(value)) throw new RecurrenceError(key, value);
  return Number(value);
}

/**
 * Applies the defaults of spec 002 §5 and checks the ranges: interval 1 (1 to 1000); weekly without
 * a day → Monday; monthly (and yearly) without a month → January; day of month 1 (1-31 monthly, 1 to
 * the shortest chosen month's length, February 28, yearly); hour 0 (0-23); minute 0 (0-59). Fields
 * the frequency does not use are dropped; weekdays and months come back sorted without repeats.
 * Throws RecurrenceError with the key of the first field out of range.
 */
export function normalizeRecurrence(rule: RecurrenceRule): RecurrenceRule {
  const freq = rule?.freq;
  if (!RECURRENCE_FREQUENCIES.includes(freq)) throw new RecurrenceError('recurrence.freq', String(freq));
  const interval = checkInteger(rule.interval ?? 1, 1, MAX_RECURRENCE_INTERVAL, 'recurrence.interval');
  const minute = checkInteger(rule.minute ?? 0, 0, 59, 'recurrence.minute');
  if (freq === 'hourly') return { freq, interval, minute };
  const hour = checkInteger(rule.hour ?? 0, 0, 23, 'recurrence.hour');
  if (freq === 'daily') return { freq, interval, hour, minute };
  if (freq === 'weekly') {
    const picked = rule.weekdays ?? [];
    if (!Array.isArray(picked) || picked.some((d) => !RECURRENCE_WEEKDAYS.includes(d))) {
      throw new RecurrenceError('recurrence.weekday', String(picked));
    }
    const weekdays = RECURRENCE_WEEKDAYS.filter((d) => picked.includes(d));
    return { freq, interval, weekdays: weekdays.length ? weekdays : ['MO'], hour, minute };
  }
  const chosen = rule.months ?? [];
  if (!Array.isArray(chosen)) throw new RecurrenceError('recurrence.month', String(chosen));
  chosen.forEach((m) => checkInteger(m, 1, 12, 'recurrence.month'));
  const months = [...new Set(chosen.length ? chosen : [1])].sort((a, b) => a - b);
  const longest = freq === 'yearly' ? Math.min(...months.map((m) => MONTH_LENGTH[m - 1])) : 31;
  const monthday = checkInteger(rule.monthday ?? 1, 1, longest, 'recurrence.monthday');
  return { freq, interval, months, monthday, hour, minute };
}

function checkInteger(value: unknown, min: number, max: number, key: RecurrenceErrorKey): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RecurrenceError(key, String(value));
  }
  return value;
}

/**
 * The stored text of a rule, normalized first (so it may throw RecurrenceError), with every used
 * part spelled out in a fixed order: `FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0`. INTERVAL appears
 * only when above 1.
 */
export function formatRecurrence(rule: RecurrenceRule): string {
  const r = normalizeRecurrence(rule);
  const parts = [`FREQ=${r.freq.toUpperCase()}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.months) parts.push(`BYMONTH=${r.months.join(',')}`);
  if (r.monthday !== undefined) parts.push(`BYMONTHDAY=${r.monthday}`);
  if (r.weekdays) parts.push(`BYDAY=${r.weekdays.join(',')}`);
  if (r.hour !== undefined) parts.push(`BYHOUR=${r.hour}`);
  parts.push(`BYMINUTE=${r.minute}`);
  return parts.join(';');
}

/**
 * The first run strictly after `after`, or null if the rule never runs again (a monthly rule on the
 * 31st of months that never have one). Throws RecurrenceError for a bad rule, RangeError for an
 * invalid date.
 *
 * Hourly rules run every `interval` real hours at the given minute, so no run is doubled or lost
 * when the clocks change. The other frequencies run at a Berlin wall-clock time: rrule expands the
 * rule over "floating" wall-clock dates (UTC fields, no tzid, which has pitfalls in rrule), and
 * berlinInstant turns each into an instant. Intervals count from fixed anchors (see ANCHOR_DAY),
 * so the answer depends only on the rule and `after`, not on when the rule was saved.
 */
export function nextRun(ruleOrText: RecurrenceRule | string, after: Date): Date | null {
  const rule = typeof ruleOrText === 'string' ? parseRecurrence(ruleOrText) : normalizeRecurrence(ruleOrText);
  const now = after.getTime();
  if (Number.isNaN(now)) throw new RangeError('nextRun: invalid date');
  const interval = rule.interval ?? 1;
  if (rule.freq === 'hourly') {
    const step = interval * HOUR;
    const run = ANCHOR_HOUR + Math.floor((now - ANCHOR_HOUR) / step) * step + (rule.minute ?? 0) * MINUTE;
    return new Date(run > now ? run : run + step);
  }
  if (rule.freq === 'monthly' && !runsInSomeMonth(rule)) return null;

  // berlinInstant never decreases as the wall clock advances and maps `from` to `now` or earlier
  // (the repeated hour), so no run at a wall-clock time before `from` can be after `now`.
  const from = berlinWallClock(now);
  const start = periodStart(rule.freq, interval, from);
  const expansion = new RRule({
    freq: RRULE_FREQ[rule.freq],
    interval,
    wkst: 0,
    dtstart: new Date(start),
    until: new Date(searchEnd(rule.freq, interval, start)),
    byweekday: rule.weekdays?.map((d) => RECURRENCE_WEEKDAYS.indexOf(d)),
    bymonth: rule.months,
    bymonthday: rule.monthday === undefined ? undefined : [rule.monthday],
    byhour: [rule.hour ?? 0],
    byminute: [rule.minute ?? 0],
    bysecond: [0],
  });
  for (let wall = expansion.after(new Date(from), true); wall; wall = expansion.after(wall, false)) {
    const run = berlinInstant(wall.getTime());
    if (run > now) return new Date(run);
  }
  return null;
}

/**
 * Whether a monthly rule ever runs: every `interval` months from January reaches the months m with
 * (m - 1) divisible by gcd(interval, 12), and a chosen one among them must have the day (February 29
 * in leap years). The expansion's search limit would find the same, only slower.
 */
function runsInSomeMonth({ interval = 1, months = [], monthday = 1 }: RecurrenceRule): boolean {
  let step = 12;
  for (let b = interval; b;) [step, b] = [b, step % b];
  return months.some((m) => (m - 1) % step === 0 && (m === 2 ? 29 : MONTH_LENGTH[m - 1]) >= monthday);
}

/** The start (floating wall-clock ms) of the counted period containing `wall`, in phase with the anchors. */
function periodStart(freq: RecurrenceFrequency, interval: number, wall: number): number {
  const day = Math.floor(wall / DAY) * DAY;
  const mod = (n: number) => ((n % interval) + interval) % interval;
  if (freq === 'daily') return day - mod((day - ANCHOR_DAY) / DAY) * DAY;
  if (freq === 'weekly') {
    const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
    return monday - mod((monday - ANCHOR_DAY) / WEEK) * WEEK;
  }
  const d = new Date(day);
  if (freq === 'monthly') {
    const month = d.getUTCFullYear() * 12 + d.getUTCMonth();
    return Date.UTC(2000, month - 2000 * 12 - mod(month - 2000 * 12), 1);
  }
  return Date.UTC(d.getUTCFullYear() - mod(d.getUTCFullYear() - 2000), 0, 1);
}

/**
 * Where the search gives up: 4801 periods cover every combination of month and year in the 400-year
 * Gregorian cycle, so a rule that has not run by then never will (rrule itself stops at 9999).
 */
function searchEnd(freq: RecurrenceFrequency, interval: number, start: number): number {
  const d = new Date(start);
  const periods = 4801 * interval;
  const last = Date.UTC(9999, 11, 31);
  // Months and years are capped before they become a date: 4801 × 1000 months or years lie beyond
  // the largest date JavaScript can hold, which would give rrule an invalid `until`.
  if (freq === 'monthly') {
    const month = Math.min(d.getUTCFullYear() * 12 + d.getUTCMonth() + periods, 9999 * 12 + 11);
    return Math.min(Date.UTC(Math.floor(month / 12), month % 12, 1), last);
  }
  if (freq === 'yearly') return Math.min(Date.UTC(Math.min(d.getUTCFullYear() + periods, 9999), 0, 1), last);
  return Math.min(start + periods * (freq === 'weekly' ? WEEK : DAY), last);
}

const berlinFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: RECURRENCE_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The Berlin wall-clock time of an instant, as floating ms (its UTC fields are the wall-clock fields). */
function berlinWallClock(instant: number): number {
  const f: Record<string, number> = {};
  for (const p of berlinFormat.formatToParts(instant)) f[p.type] = Number(p.value);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return wall + (((instant % 1000) + 1000) % 1000);
}

/**
 * The instant a Berlin wall-clock time (floating ms) happens. An ambiguous time (the hour repeated
 * when summer time ends) gives its first occurrence, so a run happens once. A time that does not
 * exist (skipped when summer time begins) gives the first valid instant after it, the moment of the
 * switch (02:30 on 29 March 2026 → 03:00 CEST): the run is as late as it must be, never later.
 */
function berlinInstant(wall: number): number {
  const offsets = [berlinWallClock(wall - DAY) - (wall - DAY), berlinWallClock(wall + DAY) - (wall + DAY)];
  const exact = offsets.map((o) => wall - o).filter((t) => berlinWallClock(t) === wall);
  if (exact.length) return Math.min(...exact);
  // In the gap: wall-clock at lo reads earlier than `wall`, at hi later; find the switch between.
  let lo = wall - Math.max(...offsets);
  let hi = wall - Math.min(...offsets);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (berlinWallClock(mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The date and time for 'The next scheduled execution is {{date}} at {{time}}'. */
export interface NextRunText {
  date: string;
  time: string;
}

/**
 * A run's date and time in Europe/Berlin: 'de' (and 'de-*') gives dd.MM.yyyy and HH:mm; any other
 * language yyyy-MM-dd and HH:mm. Throws RangeError for an invalid date.
 */
export function describeNextRun(date: Date, lang: string): NextRunText {
  const wall = new Date(berlinWallClock(date.getTime()));
  const two = (n: number) => String(n).padStart(2, '0');
  const [y, m, d] = [String(wall.getUTCFullYear()).padStart(4, '0'), two(wall.getUTCMonth() + 1), two(wall.getUTCDate())];
  const time = `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}`;
  return { date: /^de\b/i.test(lang) ? `${d}.${m}.${y}` : `${y}-${m}-${d}`, time };
}
