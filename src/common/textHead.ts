/**
 * The start of a text that may be megabytes long, as a result or an error shows it (plain Node).
 */

/** What marks where shown text was cut (one character, not part of the text). */
export const CUT_MARKER = '…';

/** True for the first half of a UTF-16 surrogate pair (U+D800–U+DBFF). */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** True for the second half of a UTF-16 surrogate pair (U+DC00–U+DFFF). */
export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The start of `text`: whole when it has at most `max` UTF-16 code units, else its first `max`
 * units (one fewer where a surrogate pair would be split) and {@link CUT_MARKER}.
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}${CUT_MARKER}`;
}
