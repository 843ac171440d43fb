/** A node run's failure with a translated message (`key` in the switchboards namespace, with `params`). */
export class NodeRunError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}
