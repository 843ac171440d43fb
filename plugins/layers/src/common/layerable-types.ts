/** The depot types a layer shows (spec 001 §3.1 via PILE_TYPES), as type names without an address. */
export function typeNameOf(contentType: string): string {
  return contentType.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '');
}
