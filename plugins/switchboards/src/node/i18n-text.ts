/** A text in the caller's language from a {de, en} record (English, then any, as fallback). */
export function textOf(value: Record<string, string>, lang: string): string {
  return value[lang] ?? value.en ?? Object.values(value)[0] ?? '';
}
