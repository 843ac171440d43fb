import type { DatumFields } from '@werkbank/kernel';

/**
 * The one field a datum editor edits directly, decided by the type's template: the template's only
 * field (a string's `value`, a colour's `hex`, a depot's `value`), or undefined when the template has
 * none or several (then the editor edits the fields as an object).
 */
export function editedField(template: DatumFields): string | undefined {
  const keys = Object.keys(template);
  return keys.length === 1 ? keys[0] : undefined;
}

/**
 * What a datum editor edits (decision 0013): the value of the template's only field, or the datum's
 * fields as an object. Decided by the type's `template`, never by the datum: a datum that holds one
 * field of a type with several (an sta-livedataset with only `origin`) is still an object.
 */
export function datumEditorValue(template: DatumFields, fields: DatumFields): unknown {
  const field = editedField(template);
  return field === undefined ? fields : fields[field];
}

/**
 * The inverse of datumEditorValue: the datum's fields after its editor changed `value`. Other
 * fields of `fields` are kept; a value that is not an object, for a type edited as an object,
 * leaves `fields` as they were.
 */
export function datumFieldsFromEditor(template: DatumFields, fields: DatumFields, value: unknown): DatumFields {
  const field = editedField(template);
  if (field !== undefined) return { ...fields, [field]: value };
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as DatumFields) } : fields;
}
