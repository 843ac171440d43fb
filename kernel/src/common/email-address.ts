/** The longest address a mail system must accept (RFC 5321: 254 octets in a path). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * Whether `text` looks like one deliverable address `local@domain.tld` (spec 002 §5 "A valid email
 * address is required" when inviting). One rule for the user editor and the server; it does not
 * accept display names, lists, comments or quoted local parts.
 */
export function isValidEmail(text: string): boolean {
  const s = text.trim();
  if (!s || s.length > EMAIL_MAX_LENGTH) return false;
  return (
    /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"._-][^\s@<>()[\]\\,;:"]*\.[A-Za-z\u00a0-\uffff]{2,}$/.test(s) && !s.includes('..')
  );
}
