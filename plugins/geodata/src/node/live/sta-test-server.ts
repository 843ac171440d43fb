import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Datastream of the test service with its Observations, newest last. */
export interface TestDatastream {
  id: number;
  name: string;
  symbol: string;
  observations: Array<{ id: number; phenomenonTime: string; result: unknown }>;
}

/** A Thing of the test service. */
export interface TestThing {
  id: number;
  name: string;
  description: string;
  properties: Record<string, unknown>;
  locations: Array<{ name: string; encodingType: string; location: unknown }>;
  datastreams: TestDatastream[];
}

/**
 * The Things of the OGC SensorThings API v1.1 examples (OGC 18-088 §8.2: the oven at the
 * University of Calgary, its Location and its temperature Datastream), and two more: a Thing whose
 * Location is a GeoJSON Feature, and one without a location.
 */
export function exampleThings(): TestThing[] {
  return [
    {
      id: 1,
      name: 'Oven',
      description: 'This thing is an oven.',
      properties: { owner: 'Noah Liang', color: 'Black' },
      locations: [
        { name: 'CCIT', encodingType: 'application/geo+json', location: { type: 'Point', coordinates: [-114.133, 51.08] } },
      ],
      datastreams: [
        {
          id: 11,
          name: 'oven temperature',
          symbol: '°C',
          observations: [
            { id: 101, phenomenonTime: '2014-12-31T11:59:59.00+08:00', result: 70.4 },
            { id: 102, phenomenonTime: '2015-01-01T00:00:00.00+08:00', result: 71.2 },
          ],
        },
        { id: 12, name: 'oven humidity', symbol: '%', observations: [] },
      ],
    },
    {
      id: 2,
      name: 'Pegel Köln',
      description: 'Rhine gauge',
      properties: { river: 'Rhein' },
      locations: [
        {
          name: 'Köln',
          encodingType: 'application/vnd.geo+json',
          location: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.963, 50.937] }, properties: {} },
        },
      ],
      datastreams: [
        {
          id: 21,
          name: 'water level',
          symbol: 'cm',
          observations: [{ id: 201, phenomenonTime: '2026-11-26T12:00:00Z', result: 312 }],
        },
      ],
    },
    { id: 3, name: 'Unplaced', description: 'A thing without a location', properties: {}, locations: [], datastreams: [] },
  ];
}

/** `name eq 'x'` (the one OData filter the test service understands); any other filter matches nothing. */
function matches(filter: string | null, item: { name: string }): boolean {
  if (!filter) return true;
  const m = /^name eq '(.*)'$/.exec(filter.trim());
  return !!m && m[1] === item.name;
}

/** The `$filter` inside an `$expand` option such as `Datastreams($filter=name eq 'x';$expand=…)`. */
function expandedFilter(expand: string): string | null {
  return /Datastreams\(\$filter=([^;)]*)/.exec(expand)?.[1] ?? null;
}

/** A loopback SensorThings API v1.1 service for tests; its Things can be changed while it runs. */
export interface StaTestServer {
  /** `http://127.0.0.1:<port>` (the origin; the service answers under `/v1.1/`). */
  origin: string;
  things: TestThing[];
  /** While true, every request fails with 503 (a service that is down). */
  failing: boolean;
  /** Every request path with its query, in order. */
  requests: string[];
  /** Adds an Observation to a Datastream (what a sensor's POST would do) and returns it. */
  observe(datastreamId: number, result: unknown): { id: number; phenomenonTime: string; result: unknown };
  close(): Promise<void>;
}

/** Answers one GET /v1.1/Things with paging ($top, $skip, $count, @iot.nextLink). */
function thingsPage(server: StaTestServer, url: URL): unknown {
  const top = Number(url.searchParams.get('$top') ?? 100);
  const skip = Number(url.searchParams.get('$skip') ?? 0);
  const expand = url.searchParams.get('$expand') ?? '';
  const dsFilter = expandedFilter(expand);
  const all = server.things.filter((t) => matches(url.searchParams.get('$filter'), t));
  const value = all.slice(skip, skip + top).map((t) => ({
    '@iot.id': t.id,
    '@iot.selfLink': `${server.origin}/v1.1/Things(${t.id})`,
    name: t.name,
    description: t.description,
    properties: t.properties,
    ...(expand.includes('Locations') ? { Locations: t.locations.map((l, i) => ({ '@iot.id': t.id * 100 + i, ...l })) } : {}),
    Datastreams: t.datastreams
      .filter((d) => matches(dsFilter, d))
      .map((d) => ({
        '@iot.id': d.id,
        name: d.name,
        unitOfMeasurement: { name: d.name, symbol: d.symbol, definition: '' },
        ...(expand.includes('Observations') ? { Observations: d.observations.slice(-1).reverse() } : {}),
      })),
  }));
  const next = new URL(url.href);
  next.searchParams.set('$skip', String(skip + top));
  return {
    ...(url.searchParams.get('$count') === 'true' ? { '@iot.count': all.length } : {}),
    ...(skip + top < all.length ? { '@iot.nextLink': next.href } : {}),
    value,
  };
}

/** Starts the test service on 127.0.0.1 with `things` (the examples when not given). */
export async function startStaTestServer(things = exampleThings()): Promise<StaTestServer> {
  let nextId = 1000;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', state.origin);
    state.requests.push(`${url.pathname}${url.search}`);
    if (state.failing) return void res.writeHead(503).end();
    if (req.method === 'GET' && url.pathname === '/v1.1/Things')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(thingsPage(state, url)));
    else if (url.pathname === '/broken/v1.1/Things')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"value": [\n  {"name": }\n]}');
    else if (url.pathname === '/loop/v1.1/Things')
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ value: [{ name: 'x' }], '@iot.nextLink': url.href }));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":404,"type":"error","message":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: StaTestServer = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    things,
    failing: false,
    requests: [],
    observe(datastreamId, result) {
      const ds = state.things.flatMap((t) => t.datastreams).find((d) => d.id === datastreamId);
      if (!ds) throw new Error(`no datastream ${datastreamId}`);
      const observation = { id: nextId++, phenomenonTime: new Date().toISOString(), result };
      ds.observations.push(observation);
      return observation;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return state;
}
