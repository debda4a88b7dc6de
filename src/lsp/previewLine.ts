/**
 * The preview of a location's line in a tool's answer (plain Node): trimmed and bounded.
 */

/** Bound on a preview line. */
export const PREVIEW_MAX_CHARS = 200;

/**
 * A line trimmed and bounded to {@link PREVIEW_MAX_CHARS} code points (`…` appended when cut).
 * Reads only the code points it keeps: a location on a minified file's one line of megabytes
 * costs as little as one on a short line.
 */
export function preview(line: string): string {
  const t = line.trim();
  if (t.length <= PREVIEW_MAX_CHARS) return t; // UTF-16 units ≥ code points
  let kept = 0;
  let end = 0;
  for (const cp of t) {
    if (kept === PREVIEW_MAX_CHARS) return t.slice(0, end) + '…';
    kept++;
    end += cp.length;
  }
  return t;
}
