/** Quoting for POSIX shells (plain Node). */

/** `value` as one single-quoted POSIX shell word (a quote inside as `'\''`). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
