/** Channel names: what PostgreSQL accepts as an unquoted identifier, in lower case. */
export const BUS_CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;

/** Largest payload in bytes (UTF-8 JSON). PostgreSQL refuses NOTIFY payloads of 8,000 bytes and more. */
export const BUS_MAX_PAYLOAD_BYTES = 7000;

/** Throws when `channel` is not a valid bus channel name. */
export function checkBusChannel(channel: string): void {
  if (!BUS_CHANNEL.test(channel))
    throw new Error(`Invalid message bus channel '${channel}': use lower-case letters, digits and underscores (at most 63).`);
}

/**
 * The text a message travels as. Both buses apply the same checks, so a plugin that works on the
 * embedded database also works with a PostgreSQL server. Throws on an invalid channel or a payload
 * over BUS_MAX_PAYLOAD_BYTES (send ids, not data).
 */
export function encodeBusMessage(channel: string, payload: Record<string, unknown>): string {
  checkBusChannel(channel);
  const text = JSON.stringify(payload);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > BUS_MAX_PAYLOAD_BYTES)
    throw new Error(
      `Message on '${channel}' is ${bytes} bytes; the bus carries at most ${BUS_MAX_PAYLOAD_BYTES} (send ids, not data).`,
    );
  return text;
}
