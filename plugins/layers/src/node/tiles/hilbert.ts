/**
 * Hilbert index of the cell (x, y) on a square grid of `size` cells per side (a power of two, at
 * most 2^26 so that indexes up to 2^52 stay exact): neighbours on the curve are neighbours on the map.
 */
export function hilbert(x: number, y: number, size: number): number {
  let d = 0;
  for (let s = size / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return d;
}
