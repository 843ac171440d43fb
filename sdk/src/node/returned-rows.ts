/**
 * The rows of `RETURNING` from `manager.query`: the pg driver answers an UPDATE or DELETE with
 * `[rows, affectedCount]` and an INSERT or SELECT with the rows alone.
 */
export function returnedRows<T = unknown>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return (result as T[]) ?? [];
}
