// Lint rules that keep the plugin boundary (decision 0024). Plain JavaScript: ESLint loads it as is.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Every plugin package of the repository: folder, package name, id, requires and optional. */
function repositoryPlugins() {
  const out = [];
  for (const base of ['plugins', 'examples']) {
    const dir = join(root, base);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (!pkg.werkbank) continue;
      out.push({
        dir: join(dir, name),
        name: pkg.name,
        id: pkg.werkbank.id,
        uses: new Set([...(pkg.werkbank.requires ?? []), ...(pkg.werkbank.optional ?? [])]),
      });
    }
  }
  return out;
}

const plugins = repositoryPlugins();
const pluginOf = (file) => plugins.find((p) => file.startsWith(p.dir + sep));
/** Tests (specs and a plugin's `test/` folder) may also use another plugin's test kit (`<package>/testing`). */
const isTestFile = (file) => /\.spec\.tsx?$/.test(file) || file.includes(`${sep}test${sep}`);

/**
 * `werkbank/plugin-imports`: a plugin imports another plugin only through that plugin's typed API
 * (`<package>/api`; tests also through its test kit, `<package>/testing`), and only when it lists the
 * plugin in `requires` or `optional`; no relative
 * import leaves the plugin's folder.
 */
const pluginImports = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename;
    const own = pluginOf(file);
    if (!own) return {};
    const check = (node, source) => {
      if (source.startsWith('.')) {
        const target = resolve(dirname(file), source);
        if (!target.startsWith(own.dir + sep))
          context.report({ node, message: `Relative import '${source}' leaves the plugin '${own.id}': import another plugin through its API package (<package>/api).` });
        return;
      }
      const other = plugins.find((p) => source === p.name || source.startsWith(p.name + '/'));
      if (!other || other === own) return;
      const allowed = isTestFile(file) ? [`${other.name}/api`, `${other.name}/testing`] : [`${other.name}/api`];
      if (!allowed.includes(source))
        context.report({ node, message: `Import '${other.name}' only through its API: '${other.name}/api'${isTestFile(file) ? ` (tests also '${other.name}/testing')` : ''}.` });
      else if (!own.uses.has(other.id))
        context.report({ node, message: `Plugin '${own.id}' imports the API of '${other.id}' without listing it in requires or optional.` });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, String(node.source.value)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};

/**
 * `werkbank/common-imports`: code in a `common/` folder runs in the browser and on the server, so
 * at run time it imports neither side's code (Theia's rule); type-only imports are fine.
 */
const SIDE_SPECIFIC = [
  /^@werkbank\/sdk\/(node|browser|ui|react|canvas)$/,
  /^@werkbank\/kernel\/(node|browser|browser-host)$/,
  /^@werkbank\/server/,
  /^node:/,
  /^(react|react-dom|mobx-react-lite|@blueprintjs\/.*|typeorm|koa|@koa\/router)(\/.*)?$/,
];
const commonImports = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = relative(root, context.filename).split(sep);
    const i = rel.indexOf('common');
    if (i < 0 || rel[i - 1] !== 'src' || /\.spec\.tsx?$/.test(context.filename)) return {};
    const commonDir = resolve(root, ...rel.slice(0, i + 1));
    const check = (node, source, typeOnly) => {
      if (typeOnly) return;
      const sideFolder = source.startsWith('.') && !resolve(dirname(context.filename), source).startsWith(commonDir + sep);
      if (sideFolder || SIDE_SPECIFIC.some((re) => re.test(source)))
        context.report({ node, message: `Common code imports '${source}' at run time: only types may come from browser or node code.` });
    };
    return {
      ImportDeclaration: (node) =>
        check(node, node.source.value, node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
    };
  },
};

export default { rules: { 'plugin-imports': pluginImports, 'common-imports': commonImports } };
