/**
 * Redaction of secrets in terminal text (plain Node, synchronous: see secretRedactor.ts for where
 * it runs). The rules (secretRules.ts) read the text as a person sees it, so a secret is found
 * however the terminal carries it:
 * - coloured: escape sequences (ECMA-48 CSI, OSC/DCS/APC/PM/SOS strings, two-byte escapes) and
 *   carriage returns are left out of the text the rules read;
 * - wrapped: a line exactly as wide as a wrap width (the terminal's columns, 80, 76) that ends and
 *   continues with a visible character is read joined with the next, as the terminal shows it;
 * - split by the scrollback: a piece of a longer line (ending with LINE_SPLIT_MARKER, scrollback.ts)
 *   is read joined with the next piece, the marker left out;
 * - cut by a page or a viewport: a private key block without its END line runs to the end.
 * Each secret is replaced in the original text by `[redacted: <label>]`; the escape sequences,
 * carriage returns and newlines inside it are kept, so colours, line counts and line numbers stay
 * true. Whatever surrounds the secret is left as it was.
 */
import { LINE_SPLIT_MARKER } from '../output/scrollback';
import { type Finding, type UserSecretPattern, findSecrets } from './secretRules';

/** What redaction needs besides the text. */
export interface RedactOptions {
  /** The person's own patterns (dsh.terminal.secretPatterns). */
  patterns?: readonly UserSecretPattern[];
  /** The terminal's width in columns: wrapped lines of this width are joined (80 and 76 always are). */
  columns?: number;
}

/** Redacted text and what was found in it. */
export interface Redaction {
  text: string;
  /** Secrets replaced. */
  count: number;
}

/** The replacement of a secret. */
export function redactionLabel(label: string): string {
  return `[redacted: ${label}]`;
}

/** CSI, OSC/DCS/APC/PM/SOS strings (ended by BEL or ST, or unfinished), two-byte escapes, and CR. */
const ESCAPE_SOURCE = /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?/.source;
const ESCAPES = new RegExp(`${ESCAPE_SOURCE}|\r`, 'g');
/** Characters a secret's run is made of: it is redacted up to where that run ends. */
export const TOKEN_CHAR = /[A-Za-z0-9+/=_\-.~]/;
/** Widths at which programs and terminals wrap long text (besides the terminal's own). */
export const WRAP_WIDTHS: readonly number[] = [80, 76];

/** One escape sequence at the `lastIndex` an ESC is at (the alternatives of ESCAPES but CR). */
const ESCAPE_AT = new RegExp(ESCAPE_SOURCE, 'y');

/**
 * The text as the rules read it (see the module comment) and, for each of its UTF-16 code units,
 * the offset of that unit in `text`. Linear: one pass over `text` leaves escapes and CRs out, one
 * over the lines joins wrapped ones, and with `joinSplits` the scrollback's pieces of a longer
 * line (`splits` counts those joins); kept text is copied in slices, the offsets in blocks.
 */
function readableText(text: string, columns: number | undefined, joinSplits: boolean): { scan: string; at: Int32Array; splits: number } {
  // Escapes and CR out: `plain` with plainAt[i] = offset in text.
  const plainAt = new Int32Array(text.length + 1);
  const parts: string[] = [];
  let n = 0;
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c !== 0x1b && c !== 0x0d) {
      plainAt[n++] = i++;
      continue;
    }
    if (i > from) parts.push(text.slice(from, i));
    let length = 1;
    if (c === 0x1b) {
      ESCAPE_AT.lastIndex = i;
      length = Math.max(1, ESCAPE_AT.exec(text)?.[0].length ?? 1);
    }
    i += length;
    from = i;
  }
  if (text.length > from) parts.push(text.slice(from));
  const plain = parts.length === 1 ? parts[0]! : parts.join('');
  // Wrapped lines joined: a newline after a line exactly as wide as a wrap width, between two visible characters.
  const widths = new Set(columns ? [columns, ...WRAP_WIDTHS] : WRAP_WIDTHS);
  const at = new Int32Array(n + 1);
  const scanParts: string[] = [];
  let m = 0;
  let lineStart = 0;
  let copied = 0;
  let splits = 0;
  for (let i = plain.indexOf('\n'); i >= 0; i = plain.indexOf('\n', i + 1)) {
    const width = i - lineStart;
    if (joinSplits && i > lineStart && plain[i - 1] === LINE_SPLIT_MARKER) {
      splits++;
      // A piece of a longer line the scrollback split: joined with the next, the marker left out.
      at.set(plainAt.subarray(copied, i - 1), m);
      m += i - 1 - copied;
      scanParts.push(plain.slice(copied, i - 1));
      copied = i + 1;
      lineStart = i + 1;
      continue;
    }
    const joined = widths.has(width) && i > lineStart && i + 1 < plain.length && !/\s/.test(plain[i - 1]!) && !/\s/.test(plain[i + 1]!);
    if (joined) {
      at.set(plainAt.subarray(copied, i), m);
      m += i - copied;
      scanParts.push(plain.slice(copied, i));
      copied = i + 1;
    }
    lineStart = i + 1;
  }
  at.set(plainAt.subarray(copied, n), m);
  m += n - copied;
  scanParts.push(plain.slice(copied));
  at[m] = text.length;
  return { scan: scanParts.length === 1 ? scanParts[0]! : scanParts.join(''), at, splits };
}

/**
 * Findings made whole and apart: an AWS report that starts with the variable's name starts after
 * it; one that ends inside a run of token characters ends where the run does; overlapping ones
 * merge, keeping the label of the one found first.
 */
function normalize(scan: string, findings: Finding[]): (Finding & { rank: number })[] {
  const spans: (Finding & { rank: number })[] = [];
  findings.forEach((f, rank) => {
    let { start, end } = f;
    // secretlint's AWS rules report from the variable's name on: the secret starts after `NAME=`.
    const head = f.label.startsWith('AWS')
      ? /^["']?[A-Za-z_][A-Za-z0-9_]{0,127}["']?\s{0,8}(?:=>|[:=])\s{0,8}["']?/.exec(scan.slice(start, Math.min(end, start + 160)))
      : null;
    if (head && start + head[0].length < end) start += head[0].length;
    // A URL's credentials: only the password goes.
    const url = f.label === 'password in URL' ? /:\/\/[^\s:@/]{0,256}:([^\s@/]{1,256})@/.exec(scan.slice(start, end)) : null;
    if (url) {
      start += url.index + url[0].length - 1 - url[1]!.length;
      end = start + url[1]!.length;
    } else if (f.label !== 'private key') {
      while (end < scan.length && TOKEN_CHAR.test(scan[end]!) && end - f.end < 4096) end++;
    }
    if (end > start) spans.push({ start, end, label: f.label, rank });
  });
  return mergeOverlapping(spans);
}

/** `spans` (each with the rank of its finding) sorted, overlapping ones merged, keeping the label of the lowest rank. */
function mergeOverlapping(spans: (Finding & { rank: number })[]): (Finding & { rank: number })[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: (Finding & { rank: number })[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      // The label of the finding reported first: the more specific rules report first.
      if (span.rank < last.rank) Object.assign(last, { label: span.label, rank: span.rank });
    } else merged.push({ ...span });
  }
  return merged;
}

/** Text of a secret that goes: all but newlines and a line split marker before one (escapes are kept apart). */
const NOT_STRUCTURE = new RegExp(`[^\\n${LINE_SPLIT_MARKER}]|${LINE_SPLIT_MARKER}(?!\\n)`, 'g');

/**
 * What stays of `raw` (a secret's original text): its escape sequences, carriage returns and
 * newlines, and the scrollback's line split markers before them, in order.
 */
function structureOf(raw: string): string {
  let kept = '';
  ESCAPES.lastIndex = 0;
  let from = 0;
  for (let m = ESCAPES.exec(raw); m; m = ESCAPES.exec(raw)) {
    kept += raw.slice(from, m.index).replace(NOT_STRUCTURE, '');
    kept += m[0];
    from = m.index + m[0].length;
    if (m[0].length === 0) ESCAPES.lastIndex++;
  }
  return kept + raw.slice(from).replace(NOT_STRUCTURE, '');
}

/** Ranks of what the reading apart finds start here: after every finding of the joined reading, whose labels win. */
const APART_RANKS = 1 << 30;

/**
 * The secrets the rules find in `readable` (readableText), as spans of the original text, ranked
 * from `rank0` on in the order they were found.
 */
function secretsIn(
  readable: { scan: string; at: Int32Array },
  patterns: RedactOptions['patterns'],
  rank0: number,
): (Finding & { rank: number })[] {
  const { scan, at } = readable;
  return normalize(scan, findSecrets(scan, patterns)).map((span) => ({
    ...span,
    start: at[span.start]!,
    end: at[span.end - 1]! + 1,
    rank: rank0 + span.rank,
  }));
}

/**
 * `text` with every secret the rules find replaced by `[redacted: <label>]` (see the module
 * comment). Synchronous, and not linear on hostile text: run it in a worker within a time bound
 * for anything longer than a line (secretRedactor.ts).
 */
export function redactSecrets(text: string, options: RedactOptions = {}): Redaction {
  if (text.length === 0) return { text, count: 0 };
  const joined = readableText(text, options.columns, true);
  const found = secretsIn(joined, options.patterns, 0);
  // A line that ends in the split marker may be a program's own output, not a piece the scrollback
  // split: read apart too, or such a line could join a secret to the text before it.
  if (joined.splits > 0) found.push(...secretsIn(readableText(text, options.columns, false), options.patterns, APART_RANKS));
  const spans = mergeOverlapping(found);
  if (spans.length === 0) return { text, count: 0 };
  let out = '';
  let from = 0;
  for (const { start, end, label } of spans) {
    out += text.slice(from, start) + redactionLabel(label) + structureOf(text.slice(start, end));
    from = end;
  }
  return { text: out + text.slice(from), count: spans.length };
}
