/**
 * The triggers that release a blob a column holds (decision 0017): when a row's column changes to
 * another blob (or none) and when the row goes, the old hash becomes a sweep candidate through
 * `werkbank_blob_release`. `name` prefixes the function and the triggers (`<name>_release`,
 * `<name>_replaced`, `<name>_removed`). Statements for a migration's `up` and `down`.
 */
export function blobColumnTriggers(table: string, column: string, name: string): { up: string[]; down: string[] } {
  for (const id of [table, column, name]) if (!/^[a-z_][a-z0-9_]*$/.test(id)) throw new Error(`Not an SQL name: ${id}`);
  return {
    up: [
      `
      CREATE FUNCTION ${name}_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM werkbank_blob_release(OLD.${column});
        RETURN NULL;
      END $$`,
      `
      CREATE TRIGGER ${name}_replaced AFTER UPDATE OF ${column} ON ${table}
      FOR EACH ROW WHEN (OLD.${column} IS NOT NULL AND OLD.${column} IS DISTINCT FROM NEW.${column})
      EXECUTE FUNCTION ${name}_release()`,
      `
      CREATE TRIGGER ${name}_removed AFTER DELETE ON ${table}
      FOR EACH ROW WHEN (OLD.${column} IS NOT NULL) EXECUTE FUNCTION ${name}_release()`,
    ],
    down: [
      `DROP TRIGGER ${name}_removed ON ${table}`,
      `DROP TRIGGER ${name}_replaced ON ${table}`,
      `DROP FUNCTION ${name}_release()`,
    ],
  };
}
