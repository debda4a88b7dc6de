/**
 * The text of a wiki link and of a block id (plain Node, no `vscode` import): a link's body split
 * into target, anchor and alias; a backslash escape before `[[` or `!`; a heading's trailing
 * ` ^id`. Grammar (Obsidian / Foam): `[[target|alias]]`, `[[target\|alias]]` (inside tables),
 * `[[target#Heading]]`, `[[target#^block]]`, `[[#Heading]]` (same note).
 *
 * All positions are LSP positions: 0-based line, 0-based UTF-16 character.
 */

import type { AliasOrder, WikiLink, WikiLinkAnchor } from './parsedNote';

/** True when the character at `index` follows an odd number of backslashes (it is escaped). */
export function precededByBackslash(text: string, index: number): boolean {
  let k = index - 1;
  let count = 0;
  while (k >= 0 && text[k] === '\\') {
    count++;
    k--;
  }
  return count % 2 === 1;
}

/**
 * Split a link body (between `[[` and `]]`) into target, anchor and alias.
 * `bodyStart` is the UTF-16 character of the body's first character on `line`.
 */
export function parseLinkBody(
  body: string,
  bodyStart: number,
  line: number,
  aliasOrder: AliasOrder,
): Pick<WikiLink, 'target' | 'anchor' | 'alias' | 'targetRange'> | undefined {
  // The first `|` divides; `\|` (escaped inside a table) divides too, and the backslash belongs to neither side.
  const bar = body.indexOf('|');
  let first: [number, number];
  let second: [number, number] | undefined;
  if (bar < 0) first = [0, body.length];
  else {
    const firstEnd = bar > 0 && body[bar - 1] === '\\' ? bar - 1 : bar;
    first = [0, firstEnd];
    second = [bar + 1, body.length];
  }
  let targetPart = first;
  let aliasPart = second;
  if (aliasOrder === 'alias-first' && second) {
    targetPart = second;
    aliasPart = first;
  }
  const [ts, te] = trimBounds(body, targetPart[0], targetPart[1]);
  const targetText = body.slice(ts, te);
  const hash = targetText.indexOf('#');
  const path = (hash < 0 ? targetText : targetText.slice(0, hash)).trim();
  let anchor: WikiLinkAnchor | undefined;
  if (hash >= 0) {
    const a = targetText.slice(hash + 1).trim();
    if (a.startsWith('^')) {
      const id = a.slice(1).trim();
      if (id) anchor = { kind: 'block', id };
    } else if (a) anchor = { kind: 'heading', text: a };
  }
  if (path === '' && !anchor) return undefined;
  const alias = aliasPart ? body.slice(aliasPart[0], aliasPart[1]).trim() : undefined;
  return {
    target: path,
    ...(anchor ? { anchor } : {}),
    ...(alias !== undefined && alias !== '' ? { alias } : {}),
    targetRange: { start: { line, character: bodyStart + ts }, end: { line, character: bodyStart + te } },
  };
}

function trimBounds(s: string, a: number, b: number): [number, number] {
  while (a < b && /\s/.test(s[a]!)) a++;
  while (b > a && /\s/.test(s[b - 1]!)) b--;
  return [a, b];
}

/**
 * Heading text without a trailing block id (` ^id`: whitespace, `^`, a letter or digit, then
 * letters, digits and `-`), trailing whitespace before it dropped too. Linear in the text: the
 * equivalent `/\s+\^id$/` scans each run of spaces once per space (a hostile note's heading).
 */
export function withoutBlockId(text: string): string {
  const caret = text.lastIndexOf('^');
  if (caret <= 0 || !/\s/.test(text[caret - 1]!) || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(text.slice(caret + 1))) return text;
  return text.slice(0, caret).trimEnd();
}
