/** Whether JSON.parse fails on the first `k` characters for a reason other than their ending early. */
function failsWithin(text: string, k: number): boolean {
  try {
    JSON.parse(text.slice(0, k));
    return false;
  } catch (e) {
    const message = (e as Error).message;
    if (/end of JSON input/i.test(message)) return false;
    const at = /position (\d+)/.exec(message);
    return !(at && Number(at[1]) >= k);
  }
}

/**
 * Line and column (from 1) of the character where `text` stops being JSON. Node's parser names no
 * position for some errors ("Unexpected token"), so the shortest failing prefix is searched
 * (bisection: about 30 parses, only once a text has failed). Ends of text count as the last line.
 */
export function jsonErrorPosition(text: string): { line: number; column: number } {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsWithin(text, mid + 1)) hi = mid;
    else lo = mid + 1;
  }
  const before = text.slice(0, lo);
  return { line: before.split('\n').length, column: lo - before.lastIndexOf('\n') };
}
