/**
 * The first lines of a document, for preview lines (plain Node, no `vscode` import): splitting a
 * file of millions of lines costs the calling thread seconds, while previews are asked for lines a
 * navigation answer points at, which for big notes lie in their indexed start.
 */
import { splitLines } from './position';

/** Text beyond this many UTF-16 code units is not split for previews (1 MiB of code units). */
export const PREVIEW_TEXT_MAX_CHARS = 1 << 20;

/** Lines beyond this many are not split for previews. */
export const PREVIEW_MAX_LINES = 50_000;

/**
 * `splitLines(text)` when `text` has at most `maxChars` code units and `maxLines` lines; else the
 * whole lines before the first bound reached (later lines are absent: a preview of them is empty,
 * as for an unreadable file).
 */
export function headLines(text: string, maxChars = PREVIEW_TEXT_MAX_CHARS, maxLines = PREVIEW_MAX_LINES): string[] {
  let lines = 1;
  let lastBreak = -1; // start of the last line terminator seen before the bounds
  const end = Math.min(text.length, maxChars + 1);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    if (lines === maxLines) return splitLines(text.slice(0, i));
    lastBreak = i;
    lines++;
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
  }
  if (text.length <= maxChars) return splitLines(text);
  return lastBreak < 0 ? [] : splitLines(text.slice(0, lastBreak));
}

/** Bytes decoded at a time by {@link headText}. */
const HEAD_CHUNK_BYTES = 256 * 1024;

/**
 * The start of UTF-8 `bytes` as text, at least `maxChars + 1` UTF-16 code units of it when the
 * bytes hold that many (a leading byte order mark dropped): what {@link headLines} with `maxChars`
 * reads, without decoding the rest. Decoding a whole 8 MiB note held the calling thread ~100-300 ms
 * for a preview of its first lines. Decodes chunks of 256 KiB until enough code units came.
 */
export function headText(bytes: Uint8Array, maxChars = PREVIEW_TEXT_MAX_CHARS): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (let at = 0; at < bytes.length; at += HEAD_CHUNK_BYTES) {
    const end = Math.min(bytes.length, at + HEAD_CHUNK_BYTES);
    text += decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
    if (text.length > maxChars) return text;
  }
  return text;
}
