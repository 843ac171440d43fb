import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const GUIDE = 'docs/plugin-guide.md';

interface Block {
  line: number;
  lang: string;
  text: string;
  /** The marker line just above the fence: `<!-- region path#name -->` or `<!-- file path -->`. */
  marker?: string;
}

/** The fenced code blocks of a Markdown text, each with the HTML comment right above it. */
export function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
    assert.ok(end > i, `${GUIDE}:${i + 1}: a code block is not closed`);
    const marker = /^<!-- (.+) -->$/.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ line: i + 1, lang: open[1], text: lines.slice(i + 1, end).join('\n'), marker });
    i = end;
  }
  return blocks;
}

/** The text between `// #region name` and `// #endregion name` of a file, without nested markers. */
export function regionText(source: string, name: string): string | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, k) => k > start && l.trim() === `// #endregion ${name}`);
  if (end < 0) return undefined;
  return lines
    .slice(start + 1, end)
    .filter((l) => !/^\s*\/\/ #(end)?region /.test(l))
    .join('\n');
}

/** Files whose regions the guide may show: compiled by `npm run typecheck` and run by the tests. */
const COMPILED = /^examples\/[^/]+\/(src|test)\/.+\.tsx?$/;

/**
 * docs/plugin-guide.md cannot rot: every TypeScript block in it is an excerpt of a marked region
 * of the example plugin (which the typecheck compiles and the tests run), and every JSON block that
 * names a file is that file.
 */
describe('the plugin guide shows only code that compiles', () => {
  const blocks = codeBlocks(readFileSync(join(ROOT, GUIDE), 'utf8'));

  it('has TypeScript blocks, each marked as a region of a compiled example file', () => {
    const ts = blocks.filter((b) => b.lang === 'ts' || b.lang === 'tsx');
    assert.ok(ts.length >= 10, `only ${ts.length} TypeScript blocks`);
    for (const b of ts) {
      const m = /^region (\S+)#(\S+)$/.exec(b.marker ?? '');
      assert.ok(m, `${GUIDE}:${b.line}: a ${b.lang} block needs <!-- region path#name --> above it`);
      const [, path, name] = m;
      assert.match(path, COMPILED, `${GUIDE}:${b.line}: ${path} is not compiled by the typecheck`);
      assert.equal(b.lang, path.endsWith('.tsx') ? 'tsx' : 'ts', `${GUIDE}:${b.line}: language of ${path}`);
      assert.ok(existsSync(join(ROOT, path)), `${GUIDE}:${b.line}: ${path} does not exist`);
      const region = regionText(readFileSync(join(ROOT, path), 'utf8'), name);
      assert.ok(region !== undefined, `${GUIDE}:${b.line}: ${path} has no region '${name}'`);
      assert.equal(b.text, region, `${GUIDE}:${b.line}: the block differs from ${path}#${name}`);
    }
  });

  it('has no block in a language the typecheck cannot see (js, jsx, typescript)', () => {
    for (const b of blocks)
      assert.ok(!['js', 'jsx', 'typescript', 'javascript'].includes(b.lang), `${GUIDE}:${b.line}: ${b.lang}`);
  });

  it('shows marked files as they are', () => {
    for (const b of blocks.filter((x) => x.marker?.startsWith('file '))) {
      const path = b.marker!.slice('file '.length);
      assert.equal(b.text, readFileSync(join(ROOT, path), 'utf8').replace(/\n$/, ''), `${GUIDE}:${b.line}: ${path} differs`);
    }
  });
});

describe('the guide check itself', () => {
  it('finds blocks with their markers and regions without nested markers', () => {
    const md = ['text', '<!-- region a.ts#x -->', '```ts', 'const a = 1;', '```', '```sh', 'npm i', '```'].join('\n');
    assert.deepEqual(
      codeBlocks(md).map((b) => [b.lang, b.text, b.marker]),
      [
        ['ts', 'const a = 1;', 'region a.ts#x'],
        ['sh', 'npm i', undefined],
      ],
    );
    const src = ['// #region x', 'a', '  // #region y', 'b', '  // #endregion y', '// #endregion x'].join('\n');
    assert.equal(regionText(src, 'x'), 'a\nb');
    assert.equal(regionText(src, 'y'), 'b');
    assert.equal(regionText(src, 'z'), undefined);
  });
});
