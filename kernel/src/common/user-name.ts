/** What is known of a user to name them. */
export interface NamedUser {
  username: string;
  first_name?: string | null;
  last_name?: string | null;
}

/**
 * How a person is named wherever Werkbank shows or reports who did something (lists, feeds,
 * moments, node runs, messages): their full name (first and last name), else their username
 * (issue 14 item 22). The username itself is shown only where it is the thing edited or typed
 * (the user editor, the login).
 */
export function userDisplayName(u: NamedUser): string {
  return `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim() || u.username;
}

/** userDisplayName as SQL, for the werkbank_user row under `alias` (the same rule). */
export function userDisplayNameSql(alias: string): string {
  return `COALESCE(NULLIF(btrim(COALESCE(${alias}.first_name, '') || ' ' || COALESCE(${alias}.last_name, '')), ''), ${alias}.username)`;
}
