/**
 * The start of a text that may be megabytes long, as a result or an error shows it (plain Node).
 */

/** What marks where shown text was cut (one character, not part of the text). */
export const CUT_MARKER = '…';

/**
 * The start of `text`: whole when it has at most `max` UTF-16 code units, else its first `max`
 * units (one fewer where a surrogate pair would be split) and {@link CUT_MARKER}.
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  const c = text.charCodeAt(max - 1);
  const end = c >= 0xd800 && c <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}${CUT_MARKER}`;
}
