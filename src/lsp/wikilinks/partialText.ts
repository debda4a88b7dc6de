/** How a partly indexed note is described to people and models (plain Node, no `vscode` import). */
import { NOTE_LIMITS } from './parse';
import type { PartialParse } from './parsedNote';

/**
 * What a partly indexed note lacks, for people and models, e.g. `big.md: lines 1–20000 of 2097153
 * indexed (the note is over the index's limit of 524288 characters); links, headings and block
 * anchors after line 20000 are not known`.
 */
export function partialText(relPath: string, lineCount: number, partial: PartialParse): string {
  const n = partial.indexedLines;
  const why =
    partial.reason === 'size'
      ? `the note is over the index's limit of ${NOTE_LIMITS.maxChars} characters`
      : partial.reason === 'items'
        ? `the note holds over ${NOTE_LIMITS.maxItems} links, headings, block anchors and code regions`
        : 'the note parser failed on it (see the log)';
  if (n === 0) return `${relPath}: nothing of its ${lineCount} lines is indexed (${why})`;
  return `${relPath}: lines 1–${n} of ${lineCount} indexed (${why}); links, headings and block anchors after line ${n} are not known`;
}
