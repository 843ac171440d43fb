import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * The server's reply shapes for the jsdom specs' fake API: the OpenAPI document of every installed
 * plugin (testing/openapi.snapshot.json, kept equal to the server's by an API suite) compiled with
 * ajv. A fake reply that contradicts the server's schema for its address is a shape violation; the
 * unit suites' root hooks fail the test that produced one.
 */
interface OpenApiDoc {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

let compiled: Array<{ pattern: RegExp; template: string; methods: Map<string, ValidateFunction> }> | undefined;

function load() {
  if (compiled) return compiled;
  const doc = JSON.parse(readFileSync(new URL('../openapi.snapshot.json', import.meta.url), 'utf8')) as OpenApiDoc;
  // `nullable` is OpenAPI 3.0's; readOnly and format are annotations here (dates are plain strings).
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'werkbank', components: rebase(doc.components) });
  compiled = Object.entries(doc.paths).map(([template, operations]) => {
    const methods = new Map<string, ValidateFunction>();
    for (const [method, op] of Object.entries(operations)) {
      const responses = op?.responses ?? {};
      const ok = responses['200'] ?? responses['201'];
      const schema = ok?.content?.['application/json']?.schema;
      if (schema) methods.set(method.toUpperCase(), ajv.compile(rebase(schema) as object));
    }
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return { pattern, template, methods };
  });
  return compiled;
}

/**
 * Points the document's local references at the schema registered as 'werkbank', and drops
 * `nullable` where no type is given (any value, null included, is allowed there anyway).
 */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    const entries = Object.entries(schema).filter(([k]) => k !== 'nullable' || 'type' in schema);
    return Object.fromEntries(
      entries.map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `werkbank${v}` : rebase(v)]),
    );
  }
  return schema;
}

/** Why `reply` does not fit the server's schema for `method path`, or undefined when it does (or none is documented). */
export function replyShapeProblem(method: string, path: string, reply: unknown): string | undefined {
  const bare = path.split('?')[0];
  // The most specific template first: a literal segment beats a parameter.
  const matches = load()
    .filter((p) => p.pattern.test(bare) && p.methods.has(method))
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const validate = matches[0]?.methods.get(method);
  if (!validate || validate(reply)) return undefined;
  const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(reply)'} ${e.message}`).join('; ');
  return `The fake reply to ${method} ${path} does not match the server's schema (${matches[0].template}): ${errors}`;
}

const violations: string[] = [];

/** Records a violation for the running test (the root hooks read and clear them). */
export function recordShapeViolation(problem: string): void {
  violations.push(problem);
}

/** The violations recorded since the last call, which clears them. */
export function takeShapeViolations(): string[] {
  return violations.splice(0);
}
