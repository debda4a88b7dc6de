/**
 * How an error quotes a value the caller sent: as JSON, cut when long. The caller may be a model
 * that sends a megabyte where a session id or a number belongs; the error (and the log line that
 * may carry it) quotes its start and states its size instead of repeating it. Plain Node.
 */
import { CUT_MARKER, textHead } from './textHead';

/** Longest quoted text, in UTF-16 code units, before it is cut. */
export const QUOTE_MAX_UNITS = 80;

/** The `maxUnits` that quotes a file path whole: Linux's PATH_MAX is 4096 bytes. */
export const PATH_QUOTE_UNITS = 4096;

/**
 * `value` as JSON (`undefined` as the word), or, when longer than `maxUnits` UTF-16 code units, its
 * first `maxUnits / 2` code units (a surrogate pair is never split) and `…`, then the size in
 * parentheses: the string's length in UTF-16 code units for a string, else the JSON's.
 * @example quoteInput('x'.repeat(1000)) === '"xxxx…xxxx…" (1000 characters)' (40 x's)
 */
export function quoteInput(value: unknown, maxUnits = QUOTE_MAX_UNITS): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value); // cyclic, BigInt, or nested too deep
  }
  if (json.length <= maxUnits) return json;
  const text = typeof value === 'string' ? value : json;
  const half = Math.floor(maxUnits / 2);
  // Cut, so marked, also when the JSON was long only for its escapes.
  const cut = text.length > half ? textHead(text, half) : `${text}${CUT_MARKER}`;
  const head = typeof value === 'string' ? `"${JSON.stringify(cut).slice(1, -1)}"` : cut;
  return `${head} (${text.length} characters)`;
}
