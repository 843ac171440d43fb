import assert from 'node:assert/strict';
import {
  describeNextRun,
  formatRecurrence,
  nextRun,
  normalizeRecurrence,
  parseRecurrence,
  RecurrenceError,
  type RecurrenceErrorKey,
  type RecurrenceRule,
} from './recurrence';

/** The run after `after` (an ISO instant), as an ISO instant, or null. */
function next(rule: RecurrenceRule | string, after: string): string | null {
  return nextRun(rule, new Date(after))?.toISOString() ?? null;
}

/** `count` consecutive runs after `after`. */
function runs(rule: RecurrenceRule | string, after: string, count: number): string[] {
  const out: string[] = [];
  let at = after;
  for (let i = 0; i < count; i++) out.push((at = next(rule, at)!));
  return out;
}

function rejects(action: () => unknown, key: RecurrenceErrorKey): void {
  assert.throws(action, (e: unknown) => e instanceof RecurrenceError && e.key === key);
}

describe('recurrence rules (spec 002 §5 "Recurrence")', () => {
  describe('text form', () => {
    it('parses the stored RRULE text into a normalized rule', () => {
      assert.deepEqual(parseRecurrence('FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0'), {
        freq: 'weekly',
        interval: 1,
        weekdays: ['MO'],
        hour: 6,
        minute: 0,
      });
      assert.deepEqual(parseRecurrence('rrule:byminute=5;freq=hourly;interval=2'), { freq: 'hourly', interval: 2, minute: 5 });
    });

    it('round-trips every frequency between text and rule', () => {
      const texts = [
        'FREQ=HOURLY;BYMINUTE=15',
        'FREQ=DAILY;INTERVAL=2;BYHOUR=6;BYMINUTE=30',
        'FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=22;BYMINUTE=45',
        'FREQ=MONTHLY;INTERVAL=3;BYMONTH=1,4,7,10;BYMONTHDAY=31;BYHOUR=0;BYMINUTE=0',
        'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28;BYHOUR=23;BYMINUTE=59',
      ];
      for (const text of texts) assert.equal(formatRecurrence(parseRecurrence(text)), text);
      const rule: RecurrenceRule = { freq: 'weekly', weekdays: ['FR', 'MO'], hour: 7 };
      assert.deepEqual(parseRecurrence(formatRecurrence(rule)), normalizeRecurrence(rule));
    });

    it('writes parts in a fixed order, sorted, without repeats and without INTERVAL=1', () => {
      assert.equal(
        formatRecurrence(parseRecurrence('BYMINUTE=0;BYHOUR=6;BYDAY=SU,MO,SU;INTERVAL=1;WKST=MO;FREQ=WEEKLY')),
        'FREQ=WEEKLY;BYDAY=MO,SU;BYHOUR=6;BYMINUTE=0',
      );
      assert.equal(
        formatRecurrence({ freq: 'monthly', months: [12, 3, 3] }),
        'FREQ=MONTHLY;BYMONTH=3,12;BYMONTHDAY=1;BYHOUR=0;BYMINUTE=0',
      );
    });

    it('rejects texts that are not rules, naming what is wrong', () => {
      rejects(() => parseRecurrence(''), 'recurrence.invalid');
      rejects(() => parseRecurrence('every day'), 'recurrence.invalid');
      rejects(() => parseRecurrence('BYHOUR=6'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=DAILY;FREQ=DAILY'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=DAILY;'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=MINUTELY'), 'recurrence.freq');
      rejects(() => parseRecurrence('FREQ=DAILY;COUNT=3'), 'recurrence.unsupported');
      rejects(() => parseRecurrence('FREQ=DAILY;UNTIL=20261231T000000Z'), 'recurrence.unsupported');
      rejects(() => parseRecurrence('FREQ=DAILY;BYDAY=MO'), 'recurrence.unsupported');
      rejects(() => parseRecurrence('FREQ=HOURLY;BYHOUR=6'), 'recurrence.unsupported');
      rejects(() => parseRecurrence('FREQ=WEEKLY;WKST=SU'), 'recurrence.unsupported');
      rejects(() => parseRecurrence('FREQ=DAILY;INTERVAL=0'), 'recurrence.interval');
      rejects(() => parseRecurrence('FREQ=DAILY;INTERVAL=1001'), 'recurrence.interval');
      rejects(() => parseRecurrence('FREQ=WEEKLY;BYDAY=1MO'), 'recurrence.weekday');
      rejects(() => parseRecurrence('FREQ=WEEKLY;BYDAY=XX'), 'recurrence.weekday');
      rejects(() => parseRecurrence('FREQ=MONTHLY;BYMONTH=13'), 'recurrence.month');
      rejects(() => parseRecurrence('FREQ=MONTHLY;BYMONTH=0'), 'recurrence.month');
      rejects(() => parseRecurrence('FREQ=MONTHLY;BYMONTHDAY=32'), 'recurrence.monthday');
      rejects(() => parseRecurrence('FREQ=MONTHLY;BYMONTHDAY=-1'), 'recurrence.monthday');
      rejects(() => parseRecurrence('FREQ=MONTHLY;BYMONTHDAY=1,15'), 'recurrence.monthday');
      rejects(() => parseRecurrence('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'), 'recurrence.monthday');
      rejects(() => parseRecurrence('FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31'), 'recurrence.monthday');
      rejects(() => parseRecurrence('FREQ=DAILY;BYHOUR=24'), 'recurrence.hour');
      rejects(() => parseRecurrence('FREQ=DAILY;BYHOUR=6,18'), 'recurrence.hour');
      rejects(() => parseRecurrence('FREQ=HOURLY;BYMINUTE=60'), 'recurrence.minute');
      // Every part is NAME=value as a whole, RRULE: only as a prefix, numbers plain decimals.
      rejects(() => parseRecurrence('FREQ=DAILY;9BYHOUR=6'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=DAILY;BYHOUR=6=7'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=DAILY;RRULE:BYHOUR=6'), 'recurrence.invalid');
      rejects(() => parseRecurrence('FREQ=HOURLY;BYMINUTE=+5'), 'recurrence.minute');
      rejects(() => parseRecurrence('FREQ=DAILY;BYHOUR=1E1'), 'recurrence.hour');
      rejects(() => parseRecurrence('FREQ=DAILY;BYHOUR=00006'), 'recurrence.hour');
      // An unknown frequency is named as such, also when the rule has other parts.
      rejects(() => parseRecurrence('FREQ=SECONDLY;BYMINUTE=5'), 'recurrence.freq');
    });

    it('reads a rule with surrounding blanks as typed into a form', () => {
      assert.deepEqual(parseRecurrence('  FREQ=DAILY;BYHOUR=6\n'), { freq: 'daily', interval: 1, hour: 6, minute: 0 });
    });
  });

  describe('defaults and ranges', () => {
    it('weekly without a day runs on Monday; monthly and yearly without a month in January', () => {
      assert.deepEqual(normalizeRecurrence({ freq: 'weekly', weekdays: [] }), {
        freq: 'weekly',
        interval: 1,
        weekdays: ['MO'],
        hour: 0,
        minute: 0,
      });
      assert.deepEqual(normalizeRecurrence({ freq: 'monthly' }), {
        freq: 'monthly',
        interval: 1,
        months: [1],
        monthday: 1,
        hour: 0,
        minute: 0,
      });
      assert.deepEqual(parseRecurrence('FREQ=YEARLY;BYMONTHDAY=31').months, [1]);
      assert.equal(next({ freq: 'weekly' }, '2026-01-07T12:00:00Z'), '2026-01-11T23:00:00.000Z');
      assert.equal(next({ freq: 'monthly' }, '2026-03-01T00:00:00Z'), '2026-12-31T23:00:00.000Z');
    });

    it('keeps only the fields the frequency uses (hourly uses only the minute)', () => {
      assert.deepEqual(normalizeRecurrence({ freq: 'hourly', hour: 5, minute: 7, weekdays: ['TU'], months: [3] }), {
        freq: 'hourly',
        interval: 1,
        minute: 7,
      });
      assert.deepEqual(normalizeRecurrence({ freq: 'daily', weekdays: ['TU'], monthday: 3, hour: 5 }), {
        freq: 'daily',
        interval: 1,
        hour: 5,
        minute: 0,
      });
    });

    it('limits the day of month to 31 monthly and to the month length (February 28) yearly', () => {
      assert.equal(normalizeRecurrence({ freq: 'monthly', months: [2], monthday: 31 }).monthday, 31);
      assert.equal(normalizeRecurrence({ freq: 'yearly', months: [2], monthday: 28 }).monthday, 28);
      assert.equal(normalizeRecurrence({ freq: 'yearly', months: [4], monthday: 30 }).monthday, 30);
      rejects(() => normalizeRecurrence({ freq: 'yearly', months: [2], monthday: 29 }), 'recurrence.monthday');
      rejects(() => normalizeRecurrence({ freq: 'yearly', months: [1, 4], monthday: 31 }), 'recurrence.monthday');
      rejects(() => normalizeRecurrence({ freq: 'monthly', monthday: 0 }), 'recurrence.monthday');
    });

    it('rejects values out of range or of the wrong kind', () => {
      rejects(() => normalizeRecurrence({ freq: 'fortnightly' as never }), 'recurrence.freq');
      rejects(() => normalizeRecurrence({ freq: 'daily', interval: 1.5 }), 'recurrence.interval');
      rejects(() => normalizeRecurrence({ freq: 'daily', hour: 6.5 }), 'recurrence.hour');
      rejects(() => normalizeRecurrence({ freq: 'daily', hour: -1 }), 'recurrence.hour');
      rejects(() => normalizeRecurrence({ freq: 'daily', minute: '5' as never }), 'recurrence.minute');
      rejects(() => normalizeRecurrence({ freq: 'weekly', weekdays: ['XX' as never] }), 'recurrence.weekday');
      rejects(() => normalizeRecurrence({ freq: 'monthly', months: [13] }), 'recurrence.month');
      rejects(() => normalizeRecurrence({ freq: 'monthly', months: 3 as never }), 'recurrence.month');
      rejects(() => normalizeRecurrence(null as never), 'recurrence.freq');
      rejects(() => nextRun('FREQ=DAILY;BYHOUR=25', new Date()), 'recurrence.hour');
      assert.throws(() => nextRun({ freq: 'daily' }, new Date('not a date')), RangeError);
      assert.throws(() => nextRun({ freq: 'hourly' }, new Date('not a date')), RangeError);
    });
  });

  describe('next run in Europe/Berlin', () => {
    it('runs daily at 06:00 local: 05:00Z in winter, 04:00Z in summer', () => {
      assert.equal(next('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-01-15T12:00:00Z'), '2026-01-16T05:00:00.000Z');
      assert.equal(next('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-07-01T00:00:00Z'), '2026-07-01T04:00:00.000Z');
      assert.equal(next('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-07-01T03:59:59Z'), '2026-07-01T04:00:00.000Z');
    });

    it('gives the first run strictly after the given instant', () => {
      assert.equal(next('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-01-16T05:00:00Z'), '2026-01-17T05:00:00.000Z');
      assert.equal(next('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-01-16T04:59:59.999Z'), '2026-01-16T05:00:00.000Z');
    });

    it('keeps daily 06:00 local across the March and October 2026 switches', () => {
      assert.deepEqual(runs('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-03-27T12:00:00Z', 3), [
        '2026-03-28T05:00:00.000Z',
        '2026-03-29T04:00:00.000Z',
        '2026-03-30T04:00:00.000Z',
      ]);
      assert.deepEqual(runs('FREQ=DAILY;BYHOUR=6;BYMINUTE=0', '2026-10-23T12:00:00Z', 3), [
        '2026-10-24T04:00:00.000Z',
        '2026-10-25T05:00:00.000Z',
        '2026-10-26T05:00:00.000Z',
      ]);
    });

    it('keeps weekly Monday 06:00 local across both switches', () => {
      assert.deepEqual(runs('FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0', '2026-03-20T00:00:00Z', 2), [
        '2026-03-23T05:00:00.000Z',
        '2026-03-30T04:00:00.000Z',
      ]);
      assert.deepEqual(runs('FREQ=WEEKLY;BYDAY=MO;BYHOUR=6;BYMINUTE=0', '2026-10-19T00:00:00Z', 2), [
        '2026-10-19T04:00:00.000Z',
        '2026-10-26T05:00:00.000Z',
      ]);
      assert.deepEqual(runs('FREQ=WEEKLY;BYDAY=TU,SA;BYHOUR=18;BYMINUTE=15', '2026-03-23T00:00:00Z', 3), [
        '2026-03-24T17:15:00.000Z',
        '2026-03-28T17:15:00.000Z',
        '2026-03-31T16:15:00.000Z',
      ]);
    });

    it('runs a time skipped in March (02:30) at the switch, 03:00 local', () => {
      assert.deepEqual(runs('FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-03-27T12:00:00Z', 3), [
        '2026-03-28T01:30:00.000Z',
        '2026-03-29T01:00:00.000Z',
        '2026-03-30T00:30:00.000Z',
      ]);
      assert.equal(next('FREQ=DAILY;BYHOUR=2;BYMINUTE=0', '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
      assert.equal(next('FREQ=DAILY;BYHOUR=3;BYMINUTE=0', '2026-03-28T12:00:00Z'), '2026-03-29T01:00:00.000Z');
    });

    it('runs a time repeated in October (02:30) once, at its first occurrence', () => {
      assert.deepEqual(runs('FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-10-23T12:00:00Z', 3), [
        '2026-10-24T00:30:00.000Z',
        '2026-10-25T00:30:00.000Z',
        '2026-10-26T01:30:00.000Z',
      ]);
      // Asked between the two 02:30s, the next run is the following day, not the repeat.
      assert.equal(next('FREQ=DAILY;BYHOUR=2;BYMINUTE=30', '2026-10-25T01:00:00Z'), '2026-10-26T01:30:00.000Z');
    });

    it('runs hourly rules every real hour, none doubled or lost at the switches', () => {
      assert.deepEqual(runs('FREQ=HOURLY;BYMINUTE=30', '2026-03-29T00:00:00Z', 3), [
        '2026-03-29T00:30:00.000Z',
        '2026-03-29T01:30:00.000Z',
        '2026-03-29T02:30:00.000Z',
      ]);
      const october = runs('FREQ=HOURLY;BYMINUTE=30', '2026-10-24T23:00:00Z', 4);
      assert.deepEqual(october, [
        '2026-10-24T23:30:00.000Z',
        '2026-10-25T00:30:00.000Z',
        '2026-10-25T01:30:00.000Z',
        '2026-10-25T02:30:00.000Z',
      ]);
      assert.deepEqual(
        october.map((t) => describeNextRun(new Date(t), 'en').time),
        ['01:30', '02:30', '02:30', '03:30'],
      );
    });

    it('counts intervals above 1 from fixed anchors, whatever the question time', () => {
      // Every 3 real hours from 2000-01-03 00:00 CET: 02:15Z, 05:15Z, … 23:15Z all year.
      assert.equal(next('FREQ=HOURLY;INTERVAL=3;BYMINUTE=15', '2026-01-15T10:00:00Z'), '2026-01-15T11:15:00.000Z');
      assert.equal(next('FREQ=HOURLY;INTERVAL=3;BYMINUTE=15', '2026-07-01T11:15:00Z'), '2026-07-01T14:15:00.000Z');
      // Every other day from 2000-01-03: 2026-01-14 is day 9508 after it, a run day.
      assert.deepEqual(runs('FREQ=DAILY;INTERVAL=2;BYHOUR=6;BYMINUTE=0', '2026-01-14T05:00:00Z', 2), [
        '2026-01-16T05:00:00.000Z',
        '2026-01-18T05:00:00.000Z',
      ]);
      // Every other week: the week of 2026-01-12 is week 1358 after 2000-01-03.
      assert.deepEqual(runs('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=6;BYMINUTE=0', '2026-01-06T00:00:00Z', 2), [
        '2026-01-12T05:00:00.000Z',
        '2026-01-26T05:00:00.000Z',
      ]);
      // Every other month from January 2000: odd months only.
      assert.deepEqual(
        runs('FREQ=MONTHLY;INTERVAL=2;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=15;BYHOUR=12', '2026-02-01T00:00:00Z', 2),
        ['2026-03-15T11:00:00.000Z', '2026-05-15T10:00:00.000Z'],
      );
      // Every fifth month from January 2000 reaches February every five years: 2002, 2007, … 2027.
      assert.equal(next('FREQ=MONTHLY;INTERVAL=5;BYMONTH=2', '2026-01-01T00:00:00Z'), '2027-01-31T23:00:00.000Z');
      // Every other year from 2000: even years only.
      assert.equal(
        next('FREQ=YEARLY;INTERVAL=2;BYMONTH=2;BYMONTHDAY=28;BYHOUR=6', '2026-02-28T05:00:00Z'),
        '2028-02-28T05:00:00.000Z',
      );
    });

    it('finds the next run of a rule that runs once in centuries, up to the largest interval', () => {
      // Every 1000 months from January 2000 (83 years 4 months): May 2083; every 1000 years: 3000.
      assert.equal(next('FREQ=MONTHLY;INTERVAL=1000;BYMONTH=5', '2026-01-01T00:00:00Z'), '2083-04-30T22:00:00.000Z');
      assert.equal(next('FREQ=YEARLY;INTERVAL=1000', '2026-01-01T00:00:00Z'), '2999-12-31T23:00:00.000Z');
      assert.equal(next('FREQ=YEARLY;INTERVAL=58', '2026-01-01T00:00:00Z'), '2057-12-31T23:00:00.000Z');
      // Every 1000 weeks / days from Monday 2000-01-03: 14,000 days later is 2038-05-03, 10,000 is 2027-05-21.
      assert.equal(next('FREQ=WEEKLY;INTERVAL=1000;BYDAY=MO', '2026-01-01T00:00:00Z'), '2038-05-02T22:00:00.000Z');
      assert.equal(next('FREQ=DAILY;INTERVAL=1000;BYHOUR=6', '2026-01-01T00:00:00Z'), '2027-05-21T04:00:00.000Z');
    });

    it('keeps intervals in phase with the anchors for any question time (checked against a day-by-day search)', () => {
      // The runs at 06:00 Berlin (never in a switch hour) of rules with intervals above 1, found by
      // walking Berlin calendar days one by one: the first in-phase day whose 06:00 is after `after`.
      const berlinDay = (instant: number) => {
        const parts = new Intl.DateTimeFormat('en-CA', {
          timeZone: 'Europe/Berlin',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
        }).format(instant);
        const [y, m, d] = parts.split('-').map(Number);
        return Date.UTC(y, m - 1, d);
      };
      const sixOClock = (day: number) =>
        [1, 2]
          .map((h) => day + (6 - h) * 3_600_000)
          .find(
            (t) =>
              new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(t) ===
              '06',
          )!;
      const anchor = Date.UTC(2000, 0, 3);
      const daysSince = (day: number) => Math.round((day - anchor) / 86_400_000);
      const cases: Array<[string, (day: number) => boolean]> = [
        ['FREQ=DAILY;INTERVAL=3;BYHOUR=6', (day) => daysSince(day) % 3 === 0],
        [
          'FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH;BYHOUR=6',
          (day) => [1, 4].includes(new Date(day).getUTCDay()) && Math.floor(daysSince(day) / 7) % 3 === 0,
        ],
        [
          'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=6',
          (day) => new Date(day).getUTCDay() === 0 && Math.floor(daysSince(day) / 7) % 2 === 0,
        ],
        [
          'FREQ=MONTHLY;INTERVAL=7;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=15;BYHOUR=6',
          (day) => {
            const d = new Date(day);
            return d.getUTCDate() === 15 && ((d.getUTCFullYear() - 2000) * 12 + d.getUTCMonth()) % 7 === 0;
          },
        ],
        [
          'FREQ=YEARLY;INTERVAL=3;BYMONTH=7;BYMONTHDAY=4;BYHOUR=6',
          (day) => {
            const d = new Date(day);
            return d.getUTCMonth() === 6 && d.getUTCDate() === 4 && (d.getUTCFullYear() - 2000) % 3 === 0;
          },
        ],
        // Interval 1 as well: the period of the question time itself counts.
        ['FREQ=DAILY;BYHOUR=6', () => true],
        ['FREQ=WEEKLY;BYDAY=TH;BYHOUR=6', (day) => new Date(day).getUTCDay() === 4],
        ['FREQ=MONTHLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=20;BYHOUR=6', (day) => new Date(day).getUTCDate() === 20],
        [
          'FREQ=YEARLY;INTERVAL=7;BYMONTH=9;BYMONTHDAY=1;BYHOUR=6',
          (day) => {
            const d = new Date(day);
            return d.getUTCMonth() === 8 && d.getUTCDate() === 1 && (d.getUTCFullYear() - 2000) % 7 === 0;
          },
        ],
      ];
      // Question times spread over four decades, at odd hours and seconds.
      const questions = Array.from({ length: 24 }, (_, i) => Date.UTC(2001, 0, 1) + i * 611 * 86_400_000 + i * 3_937_123);
      for (const [rule, inPhase] of cases) {
        for (const after of questions) {
          let day = berlinDay(after);
          while (!(inPhase(day) && sixOClock(day) > after)) day += 86_400_000;
          assert.equal(
            next(rule, new Date(after).toISOString()),
            new Date(sixOClock(day)).toISOString(),
            `${rule} after ${new Date(after).toISOString()}`,
          );
        }
      }
    });

    it('runs monthly on the chosen months, skipping months without the day', () => {
      assert.deepEqual(runs('FREQ=MONTHLY;BYMONTH=1,2,3;BYMONTHDAY=31;BYHOUR=8', '2026-01-31T08:00:00Z', 2), [
        '2026-03-31T06:00:00.000Z',
        '2027-01-31T07:00:00.000Z',
      ]);
      assert.deepEqual(runs('FREQ=MONTHLY;BYMONTH=3,10;BYMONTHDAY=29;BYHOUR=2;BYMINUTE=30', '2026-03-01T00:00:00Z', 2), [
        '2026-03-29T01:00:00.000Z',
        '2026-10-29T01:30:00.000Z',
      ]);
      assert.equal(next('FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=29', '2026-03-01T00:00:00Z'), '2028-02-28T23:00:00.000Z');
    });

    it('answers null for a rule that never runs again', () => {
      assert.equal(next('FREQ=MONTHLY;BYMONTH=2,4;BYMONTHDAY=31', '2026-01-01T00:00:00Z'), null);
      // Every other month from January reaches only odd months.
      assert.equal(next('FREQ=MONTHLY;INTERVAL=2;BYMONTH=2', '2026-01-01T00:00:00Z'), null);
      assert.equal(next('FREQ=MONTHLY;INTERVAL=12;BYMONTH=1,3;BYMONTHDAY=1', '2026-01-01T00:00:00Z'), '2026-12-31T23:00:00.000Z');
    });

    it('runs a yearly February 28 rule once a year', () => {
      const rule: RecurrenceRule = { freq: 'yearly', months: [2], monthday: 28, hour: 6 };
      assert.deepEqual(runs(rule, '2026-03-01T00:00:00Z', 2), ['2027-02-28T05:00:00.000Z', '2028-02-28T05:00:00.000Z']);
      assert.equal(next(rule, '2026-02-28T04:59:00Z'), '2026-02-28T05:00:00.000Z');
    });
  });

  describe('describeNextRun', () => {
    it('formats a run in Berlin time, German and English', () => {
      const summer = new Date('2026-03-29T04:00:00Z');
      assert.deepEqual(describeNextRun(summer, 'de'), { date: '29.03.2026', time: '06:00' });
      assert.deepEqual(describeNextRun(summer, 'en'), { date: '2026-03-29', time: '06:00' });
      const newYear = new Date('2026-12-31T23:00:00Z');
      assert.deepEqual(describeNextRun(newYear, 'de-DE'), { date: '01.01.2027', time: '00:00' });
      assert.deepEqual(describeNextRun(newYear, 'en'), { date: '2027-01-01', time: '00:00' });
      // English as spoken in Germany is English.
      assert.deepEqual(describeNextRun(newYear, 'en-DE'), { date: '2027-01-01', time: '00:00' });
    });
  });
});
