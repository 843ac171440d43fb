/** spec 001 §5.1: the temporal quick picks cover the last 10 calendar years (1 Jan to 31 Dec). */
export function lastYears(now: Date, count = 10): Array<{ year: number; time_min: string; time_max: string }> {
  const current = now.getUTCFullYear();
  return Array.from({ length: count }, (_, i) => {
    const year = current - i;
    return { year, time_min: `${year}-01-01T00:00:00.000Z`, time_max: `${year}-12-31T23:59:59.000Z` };
  });
}
