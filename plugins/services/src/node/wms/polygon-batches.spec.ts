import assert from 'node:assert/strict';
import { PolygonBatches } from './polygon-batches';

describe('WMS polygon batches', () => {
  it('draws apart polygons of a symbolizer as one path, and a polygon after every earlier one it may touch', () => {
    const painted: string[][] = [];
    const batches = new PolygonBatches<{ strokeWidth: number; strokeOpacity: number; name: string }>(100, 100, (s, trace) => {
      const names: string[] = [];
      painted.push(names);
      names.push(s.name);
      current = names;
      trace();
    });
    let current: string[] = [];
    const a = { strokeWidth: 1, strokeOpacity: 1, name: 'a' };
    const b = { strokeWidth: 10, strokeOpacity: 1, name: 'b' };
    const add = (s: typeof a, id: string, box: [number, number, number, number]) => batches.add(s, () => current.push(id), box);
    add(a, '1', [0, 0, 5, 5]);
    add(a, '2', [50, 50, 55, 55]);
    add(a, '3', [3, 3, 8, 8]); // meets 1
    add(b, '4', [70, 70, 75, 75]); // apart from all
    add(a, '5', [62, 62, 64, 64]); // meets 4 by 4's wide stroke
    add(a, '6', [200, 200, 210, 210]); // off the map: not drawn
    batches.flush();
    assert.deepEqual(painted, [
      ['a', '1', '2'],
      ['b', '4'],
      ['a', '3', '5'],
    ]);
    painted.length = 0;
    add(a, '7', [3, 3, 8, 8]);
    batches.flush();
    batches.flush();
    assert.deepEqual(painted, [['a', '7']], 'a flush forgets what it drew');
  });
});
