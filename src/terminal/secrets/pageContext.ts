/**
 * Redaction of a page an agent reads with the lines around it read along: a page that starts
 * inside a private key block, or cuts a secret a program wrapped over lines, is redacted as the
 * whole output is (secretRules.ts finds a block by its BEGIN line, a folded secret by its head).
 */
import type { Scrollback } from '../output/scrollback';
import { WITHHELD_NOTICE, withheld } from './secretRedactor';

/** Raw lines read along before and after a page (see redactPage). */
export const CONTEXT_LINES = 100;
/** Bytes of each of those contexts at most. */
const CONTEXT_BYTES = 64 * 1024;

/**
 * `text` (a page whose oldest line is absolute line `first`, `shown` raw lines long; 0 for the
 * screen, read with the lines before it only) redacted by `redact` with up to CONTEXT_LINES raw
 * lines of `scrollback` before and after it. Redaction keeps every line end, so the page's own
 * lines are taken back by count. A page whose check was withheld says so on its first line.
 */
export async function redactPage(
  scrollback: Scrollback,
  redact: (text: string) => Promise<string>,
  text: string,
  first: number,
  shown: number,
): Promise<string> {
  const { endLine, open } = scrollback.position();
  const newestEnd = endLine + (open ? 1 : 0);
  const before = scrollback.page(newestEnd - first, CONTEXT_LINES, CONTEXT_BYTES);
  const newest = first + shown - 1;
  const afterCount = shown > 0 ? Math.min(CONTEXT_LINES, newestEnd - 1 - newest) : 0;
  const after = afterCount > 0 ? scrollback.page(newestEnd - 1 - newest - afterCount, afterCount, CONTEXT_BYTES) : undefined;
  const head = before.lineEnd > before.lineBegin ? `${before.text}\n` : '';
  const tail = after && after.lineEnd > after.lineBegin ? `\n${after.text}` : '';
  const redacted = await redact(head + text + tail);
  if (redacted.startsWith(WITHHELD_NOTICE)) return withheld(text);
  const lines = redacted.split('\n');
  const skip = head ? head.split('\n').length - 1 : 0;
  return lines.slice(skip, skip + text.split('\n').length).join('\n');
}
