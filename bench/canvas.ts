/**
 * bench/canvas: the switchboard canvas in headless Chromium (Debian's), in one run: open a
 * switchboard of 500 nodes and 1,000 links (a chain frame → node → frame …, 501 frames), and an
 * empty one; for each, the time from navigation to the last node drawn, and the frames per second
 * while the canvas is panned with the mouse for 2 s; in passes, empty and big taking turns (bench-mode.ts).
 * Aims: panning at 30 fps or more and the first render under 3 s with 500 nodes.
 * BENCH_NODES changes the size. Embedded database; `npm run bench:canvas`; see bench/README.md.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startTestServer } from '@werkbank/testing/node';
import { launchChromium, login } from '../test/e2e/browser';
import { dragFps } from './browser-fps';
import { expectStatus } from '@werkbank/testing/node';
import { SWITCHBOARD_PLUGINS } from '@werkbank/plugin-switchboards/testing';
import { alternating, banner, fmt, judge, PASSES, ratios, runBench, sized, SMOKE, spread, table } from './bench-mode';

const NODES = sized('BENCH_NODES', 500, 20);
const PAN_MS = sized('BENCH_PAN_MS', 2000, 500);
/** Aims (issue 20): panning at 30 fps or more and the first render under 3 s, with 500 nodes. */
const AIM_FPS = 30;
const AIM_RENDER_MS = 3000;

/** A switchboard file: a chain of `n` string.upper nodes between n + 1 frames (2n links). */
function chain(n: number) {
  const perRow = 10;
  const at = (i: number) => ({ ui_x: (i % perRow) * 520, ui_y: Math.floor(i / perRow) * 200 });
  const frames = Array.from({ length: n + 1 }, (_, i) => ({
    ref: i + 1,
    content_type: 'string',
    name: `f${i}`,
    items: i === 0 ? [{ value: 'werkbank' }] : [],
    ui_x: at(i).ui_x,
    ui_y: at(i).ui_y + 100,
  }));
  const nodes = Array.from({ length: n }, (_, i) => ({ ref: i + 1, func: 'string.upper', ...at(i), ui_x: at(i).ui_x + 260 }));
  const links = nodes.flatMap((node, i) => [
    { node: node.ref, frame: i + 1, name: 'value', is_input: true },
    { node: node.ref, frame: i + 2, name: 'result', is_input: false },
  ]);
  return { format: 'werkbank-switchboard', version: 1, switchboard: { name: `Kette ${n}` }, nodes, frames, links, notes: [] };
}

/**
 * BENCH_PROFILE=1: the first render of the big canvas in the first pass runs under a trace of
 * Chromium's main thread; the bench prints where the time went (script, style, layout, paint) and
 * the functions with the most self time. The pass's figures are left out of the medians.
 */
const PROFILE = process.env.BENCH_PROFILE === '1';

/**
 * BENCH_CPU_SLOWDOWN=n (default 1): Chromium runs its renderer n times slower (CDP
 * `Emulation.setCPUThrottlingRate`). On this 2-core machine shared by several agents the renderer often
 * gets about half a core (load average 5–7): a slowdown of 2 reproduces that condition on a quiet
 * machine, without burning the shared cores to simulate it.
 */
const CPU_SLOWDOWN = sized('BENCH_CPU_SLOWDOWN', 1, 1);

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { url?: string } };
}

/** Main-thread time per top-level trace event kind, from a Chromium trace. */
function summariseTrace(trace: { traceEvents: TraceEvent[] }): void {
  const events = trace.traceEvents;
  // The renderer's main thread: the thread with the most complete events named RunTask.
  const counts = new Map<string, number>();
  for (const e of events)
    if (e.name === 'RunTask' && e.ph === 'X')
      counts.set(`${e.pid}:${e.tid}`, (counts.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const totals = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== main) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + (e.dur ?? 0));
  }
  const names = [
    'RunTask',
    'FunctionCall',
    'EvaluateScript',
    'v8.compile',
    'UpdateLayoutTree',
    'Layout',
    'PrePaint',
    'Paint',
    'Layerize',
    'MinorGC',
    'MajorGC',
    'ParseHTML',
  ];
  console.log('  main thread (ms, nested events overlap):');
  for (const n of names) if (totals.has(n)) console.log(`    ${n}: ${(totals.get(n)! / 1000).toFixed(0)}`);
  const forced = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && e.name === 'Layout').length;
  console.log(`    layouts: ${forced}`);
}

/** Opens the canvas; ms from navigation until `expected` nodes are drawn. */
async function firstRender(page: Page, url: string, expected: number): Promise<number> {
  const start = Date.now();
  await page.goto(url);
  await page.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=canvas-node]').length === n, expected, {
    timeout: 120_000,
  });
  return Date.now() - start;
}

/** Frames per second while the empty canvas area is dragged. */
async function panFps(page: Page): Promise<number> {
  const box = (await page.getByTestId('canvas-area').boundingBox())!;
  return dragFps(page, { x: box.x + 8, y: box.y + 8 }, PAN_MS);
}

/**
 * Zoomed out below 1/3 the canvas draws items as boxes with sockets (level of detail, decision 0081);
 * ms from the first wheel step that crosses 1/3 (in or out) until every node on screen is drawn the
 * other way (`in`, `out`), and until every node is (`inAll`, `outAll`; those off screen follow in
 * portions) — the price of the level of detail, paid when a user zooms across it. Measured after
 * the passes, on the open big canvas, `times` times each way (no aim).
 */
async function detailSwitch(
  page: Page,
  nodes: number,
  times: number,
): Promise<Record<'in' | 'out' | 'inAll' | 'outAll', number[]>> {
  const box = (await page.getByTestId('canvas-area').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const farCount = () => page.evaluate(() => document.querySelectorAll('.wb-item-far').length);
  const result = { in: [] as number[], out: [] as number[], inAll: [] as number[], outAll: [] as number[] };
  for (let i = 0; i < times; i++) {
    for (const way of ['in', 'out'] as const) {
      const far = way === 'out';
      let start = 0;
      // Rete zooms by 1.1 per wheel step: step until the switch starts (some items change their view).
      for (let step = 0; step < 40; step++) {
        start = Date.now();
        await page.mouse.wheel(0, far ? 100 : -100);
        const now = await farCount();
        if (far ? now > 0 : now < 2 * nodes + 1) break;
      }
      // A string: tsx would add helpers to a function that do not exist in the page.
      await page.waitForFunction(
        `(() => {
          const area = document.querySelector('[data-testid=canvas-area]').getBoundingClientRect();
          const seen = [...document.querySelectorAll('[data-testid=canvas-node]')].filter((n) => {
            const r = n.getBoundingClientRect();
            return r.right > area.left && r.left < area.right && r.bottom > area.top && r.top < area.bottom;
          });
          return seen.length > 0 && seen.every((n) => n.classList.contains('wb-item-far') === ${far});
        })()`,
        undefined,
        { timeout: 120_000 },
      );
      result[way].push(Date.now() - start);
      await page.waitForFunction(
        ([n, wantFar]) =>
          document.querySelectorAll(wantFar ? '.wb-item-far[data-testid=canvas-node]' : '[data-testid=canvas-node] .wb-node-name')
            .length === n,
        [nodes, far] as const,
        { timeout: 120_000 },
      );
      result[far ? 'outAll' : 'inAll'].push(Date.now() - start);
    }
  }
  return result;
}

const EMPTY = 'empty';
const BIG = `${NODES} nodes / ${2 * NODES} links`;

interface Pass {
  renderMs: number;
  fps: number;
}

async function main() {
  banner('bench/canvas', `${NODES} nodes, ${NODES + 1} frames, ${2 * NODES} links; headless Chromium 1600 × 1000`);
  execSync('node scripts/ensure-build.mjs', { stdio: 'inherit' });
  const t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS });
  const admin = await t.admin();
  const big = expectStatus<{ id: number }>(await admin.post('/api/v1/switchboard/import/', chain(NODES)), 201);
  const empty = expectStatus<{ id: number }>(await admin.post('/api/v1/switchboard/', { name: 'Leer' }), 201);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    if (CPU_SLOWDOWN !== 1) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      console.log(`Chromium's renderer slowed down ${CPU_SLOWDOWN}× (BENCH_CPU_SLOWDOWN)`);
    }
    await login(page, t.url, 'admin', t.adminPassword);
    // Warm the bundle and the code of the canvas screen once.
    await firstRender(page, `${t.url}/switchboard/${empty.id}`, 0);
    const canvases: Record<string, { id: number; nodes: number }> = {
      [EMPTY]: { id: empty.id, nodes: 0 },
      [BIG]: { id: big.id, nodes: NODES },
    };
    if (PROFILE) {
      console.log(`\nprofile of the first render of ${BIG}:`);
      const session = await page.context().newCDPSession(page);
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 200 });
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      await session.send('Profiler.start');
      const ms = await firstRender(page, `${t.url}/switchboard/${big.id}`, NODES);
      const { profile } = (await session.send('Profiler.stop')) as {
        profile: {
          nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
          samples: number[];
          timeDeltas: number[];
        };
      };
      const traceText = (await browser.stopTracing()).toString('utf8');
      summariseTrace(JSON.parse(traceText));
      // BENCH_PROFILE_OUT=dir: the trace and the CPU profile as files (Chromium's DevTools open both).
      const out = process.env.BENCH_PROFILE_OUT;
      if (out) {
        mkdirSync(out, { recursive: true });
        writeFileSync(join(out, 'first-render.trace.json'), traceText);
        writeFileSync(join(out, 'first-render.cpuprofile'), JSON.stringify(profile));
        console.log(`  trace and CPU profile written to ${out}`);
      }
      const self = new Map<string, number>();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      profile.samples.forEach((id, i) => {
        const f = byId.get(id)!.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
      });
      console.log(`  first render ${ms} ms; JS self time, top 30 (ms):`);
      for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
        console.log(`    ${(us / 1000).toFixed(0).padStart(6)}  ${k}`);
      await session.detach();
    }
    const results = await alternating<Pass>([EMPTY, BIG], async (name, pass) => {
      const c = canvases[name];
      const renderMs = await firstRender(page, `${t.url}/switchboard/${c.id}`, c.nodes);
      const fps = await panFps(page);
      console.log(`  pass ${pass + 1}, ${name}: first render ${renderMs} ms, panning ${fps.toFixed(1)} fps`);
      return { renderMs, fps };
    });
    const figure = (name: string, key: keyof Pass) => results.get(name)!.map((r) => r[key]);
    console.log(`\nMedian (min–max) of ${PASSES} passes; empty and big canvas take turns`);
    console.log(
      table([
        ['canvas', 'first render ms', 'panning fps'],
        ...[EMPTY, BIG].map((name) => [name, fmt(spread(figure(name, 'renderMs')), 0), fmt(spread(figure(name, 'fps')), 1)]),
      ]),
    );
    const renderRatio = spread(ratios(figure(BIG, 'renderMs'), figure(EMPTY, 'renderMs')));
    const fpsRatio = spread(ratios(figure(BIG, 'fps'), figure(EMPTY, 'fps')));
    console.log(`\nper pass, big / empty: first render ${fmt(renderRatio, 2)}×, panning ${fmt(fpsRatio, 2)}×`);
    await firstRender(page, `${t.url}/switchboard/${big.id}`, NODES);
    const detail = await detailSwitch(page, NODES, SMOKE ? 1 : 3);
    console.log(
      `\nlevel of detail, ${BIG} (ms, no aim): zooming in across 1/3 until the nodes on screen are drawn in full ` +
        `${fmt(spread(detail.in), 0)}, every node ${fmt(spread(detail.inAll), 0)}; out again until the nodes on screen ` +
        `are boxes ${fmt(spread(detail.out), 0)}, every node ${fmt(spread(detail.outAll), 0)}`,
    );
    judge([
      {
        what: `panning fps, ${BIG}`,
        value: spread(figure(BIG, 'fps')),
        aim: `>= ${AIM_FPS}`,
        met: (m) => m >= AIM_FPS,
        digits: 1,
      },
      {
        what: `first render ms, ${BIG}`,
        value: spread(figure(BIG, 'renderMs')),
        aim: `< ${AIM_RENDER_MS}`,
        met: (m) => m < AIM_RENDER_MS,
        digits: 0,
      },
    ]);
  } finally {
    await browser.close();
    await t.close();
  }
}

runBench('bench/canvas', main);
