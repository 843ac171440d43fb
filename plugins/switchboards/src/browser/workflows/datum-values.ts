/**
 * What a datum editor edits (docs/decisions/0013, as in the Magazine): a datum with one field gives
 * that field's value (a string's `value`, a colour's `hex`), so the editors of simple types work on
 * plain values; a datum with several fields gives the fields as an object.
 */
export function editorValue(fields: Record<string, unknown>): unknown {
  const keys = Object.keys(fields);
  return keys.length === 1 ? fields[keys[0]] : fields;
}

/** The inverse of editorValue: the datum fields of `template`'s shape after the editor changed `value`. */
export function fieldsFromEditor(template: Record<string, unknown>, value: unknown): Record<string, unknown> {
  const keys = Object.keys(template);
  if (keys.length === 1) return { [keys[0]]: value };
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : template;
}
