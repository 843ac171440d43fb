import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { TestServer } from '@werkbank/testing/node';
import { browserSuite } from './browser';

type Client = Awaited<ReturnType<TestServer['admin']>>;
type Obj = { id: number; resource_uri: string; [k: string]: unknown };

/** POSTs `body` and returns the created object (201 expected). */
async function create(c: Client, path: string, body: Record<string, unknown>): Promise<Obj> {
  const res = await c.post(path, body);
  assert.equal(res.status, 201, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Obj;
}

/**
 * A switchboard whose input frame 'text' (frame_type 1) feeds string.upper into the output frame
 * 'Großbuchstaben' (frame_type 2), plus a test.wait node on the same input that keeps the execution
 * running for `waitMs`; and a workflow named `name` on it.
 */
async function shoutingWorkflow(c: Client, name: string, waitMs: number): Promise<Obj> {
  const sb = await create(c, '/api/v1/switchboard/', { name: `${name} (Schaltpult)` });
  const frame = (type: string, fields: Record<string, unknown>) =>
    create(c, '/api/v1/frame/', { switchboard: sb.resource_uri, content_type: type, ...fields });
  const input = await frame('string', { frame_type: 1, name: 'text', description: 'Der Text, der umgewandelt wird' });
  const output = await frame('string', { frame_type: 2, name: 'Großbuchstaben' });
  const waited = await frame('any', { frame_type: 0 });
  const upper = await create(c, '/api/v1/node/', { switchboard: sb.resource_uri, func: 'string.upper' });
  const wait = await create(c, '/api/v1/node/', {
    switchboard: sb.resource_uri,
    func: 'test.wait',
    ports: [{ name: 'ms', default_value: { value: waitMs } }],
  });
  const link = (node: Obj, port: string, f: Obj, isInput: boolean) =>
    create(c, '/api/v1/link/', { node: node.resource_uri, frame: f.resource_uri, name: port, is_input: isInput });
  await link(upper, 'value', input, true);
  await link(upper, 'result', output, false);
  await link(wait, 'value', input, true);
  await link(wait, 'value', waited, false);
  return create(c, '/api/v1/workflow/', { name, steps: [{ switchboard: sb.resource_uri, executor: 'default' }] });
}

/** Workflows in a browser (issue 5): the run panel through its three stages against a real server. */
describe('workflows in a browser', function () {
  let t: TestServer;
  let page: Page;

  browserSuite({}, (s) => ({ t, page } = s));

  const stage = (s: string) => page.locator(`[data-testid=run-stage][data-stage=${s}]`);

  it('the workflow run panel through its three stages', async () => {
    const admin = await t.admin();
    await shoutingWorkflow(admin, 'Großschreibung', 1500);

    await page.getByTestId('main-menu').getByText('Workflows').click();
    await page.getByTestId('workflow-list').waitFor();
    await page.locator('.wb-object-card-title').getByText('Großschreibung').click();

    // Input data: one field per input frame, edited with the string editor.
    await stage('input').waitFor();
    await page.getByText('Der Text, der umgewandelt wird').waitFor();
    await page.getByTestId('datum-editor-string').fill('hallo welt');
    await page.getByTestId('run-start').click();

    // Progress: Stop offered while it runs.
    await stage('progress').waitFor();
    await page.getByTestId('run-stop').waitFor();
    await page.getByTestId('run-percent').waitFor();
    assert.match((await page.getByTestId('run-percent').textContent()) ?? '', /^\d+\.\d %$/);

    // Result: the computed output, Restart offered.
    await stage('result').waitFor({ timeout: 20_000 });
    await page.getByText('The execution finished successfully.').waitFor();
    assert.deepEqual(await page.getByTestId('run-result-item').allTextContents(), ['HALLO WELT']);
    await page.getByTestId('run-restart').click();
    await stage('input').waitFor();
    assert.equal(await page.getByTestId('datum-editor-string').inputValue(), 'hallo welt');
  });

  it('stops a running workflow and says that the execution failed', async () => {
    const admin = await t.admin();
    await shoutingWorkflow(admin, 'Langsam', 60_000);
    await page.goto(`${t.url}/workflows/`);
    await page.locator('.wb-object-card-title').getByText('Langsam').click();
    await page.getByTestId('datum-editor-string').fill('halt');
    await page.getByTestId('run-start').click();
    await page.getByTestId('run-stop').click();
    await stage('result').waitFor({ timeout: 20_000 });
    await page.getByTestId('run-failed').getByText('The execution failed. Please contact the provider.').waitFor();
    await page.getByTestId('run-restart').waitFor();
  });
});
