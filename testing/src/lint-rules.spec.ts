import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages the repository's lint configuration gives `code` as if it were the file `path`. */
async function lint(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint rules of the plugin boundary (decision 0024)', function () {
  this.timeout(60000);

  it('refuses a relative import into another plugin’s folder', async () => {
    const messages = await lint(
      'plugins/geodata/src/node/probe.ts',
      "import { x } from '../../../magazine/src/node/depot-access';\nexport const y = x;\n",
    );
    assert.ok(
      messages.some((m) => /werkbank\/plugin-imports: Relative import .* leaves the plugin 'geodata'/.test(m)),
      messages.join('\n'),
    );
  });

  it('lets a plugin import another plugin’s API only when it requires or optionally uses it, and only the API', async () => {
    const ok = await lint(
      'plugins/geodata/src/node/probe.ts',
      "import { FileAccess } from '@werkbank/plugin-switchboards/api';\nexport const f = FileAccess;\n",
    );
    assert.deepEqual(
      ok.filter((m) => m.startsWith('werkbank/')),
      [],
    );
    const undeclared = await lint(
      'plugins/tags/src/node/probe.ts',
      "import { DepotAccess } from '@werkbank/plugin-magazine/api';\nexport const d = DepotAccess;\n",
    );
    assert.ok(
      undeclared.some((m) => /Plugin 'tags' imports the API of 'magazine' without listing it/.test(m)),
      undeclared.join('\n'),
    );
    const internals = await lint(
      'plugins/geodata/src/node/probe.ts',
      "import { x } from '@werkbank/plugin-switchboards/src/node/engine';\nexport const y = x;\n",
    );
    assert.ok(
      internals.some((m) => /only through its API: '@werkbank\/plugin-switchboards\/api'/.test(m)),
      internals.join('\n'),
    );
  });

  it('lets a plugin’s tests, and only its tests, use another plugin’s test kit', async () => {
    const kit = "import { newDepot } from '@werkbank/plugin-magazine/testing';\nexport const n = newDepot;\n";
    const inTest = await lint('plugins/geodata/test/probe.spec.ts', kit);
    assert.deepEqual(
      inTest.filter((m) => m.startsWith('werkbank/')),
      [],
    );
    const inCode = await lint('plugins/geodata/src/node/probe.ts', kit);
    assert.ok(
      inCode.some((m) => /only through its API: '@werkbank\/plugin-magazine\/api'/.test(m)),
      inCode.join('\n'),
    );
    const undeclared = await lint('plugins/tags/test/probe.spec.ts', kit);
    assert.ok(
      undeclared.some((m) => /Plugin 'tags' imports the API of 'magazine' without listing it/.test(m)),
      undeclared.join('\n'),
    );
  });

  it('keeps run-time browser and node code out of common code, but allows type imports', async () => {
    const runtime = await lint(
      'plugins/magazine/src/common/probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { ApiError } from '@werkbank/sdk/node';\nexport const r = [readFileSync, ApiError];\n",
    );
    assert.equal(runtime.filter((m) => m.startsWith('werkbank/common-imports')).length, 2, runtime.join('\n'));
    const sideFolder = await lint(
      'plugins/magazine/src/common/probe.ts',
      "import { x } from '../browser/datum-card';\nexport const y = x;\n",
    );
    assert.ok(
      sideFolder.some((m) => m.startsWith('werkbank/common-imports')),
      sideFolder.join('\n'),
    );
    const types = await lint(
      'plugins/magazine/src/common/probe.ts',
      "import type { AuthUser } from '@werkbank/sdk/node';\nexport type U = AuthUser;\n",
    );
    assert.deepEqual(
      types.filter((m) => m.startsWith('werkbank/')),
      [],
    );
  });

  it('keeps the test harness out of plugin code and warns about files past 400 lines', async () => {
    const harness = await lint(
      'plugins/tags/src/node/probe.ts',
      "import { startTestServer } from '@werkbank/testing/node';\nexport const s = startTestServer;\n",
    );
    assert.ok(
      harness.some((m) => /Only tests use @werkbank\/testing/.test(m)),
      harness.join('\n'),
    );
    const long = await lint(
      'plugins/tags/src/node/probe.ts',
      Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n',
    );
    assert.ok(
      long.some((m) => m.startsWith('max-lines')),
      long.join('\n'),
    );
  });
});
