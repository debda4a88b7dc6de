/**
 * How text reads to a person looking at it, for confirmations: how wide a line is in terminal
 * columns, and which words do not read as what they are (a word that mixes scripts, or a command
 * name written with letters that look like ASCII ones: `сat` with a Cyrillic `с`). Plain Node.
 *
 * Sources: East Asian Width (Unicode UAX #11) from the `get-east-asian-width` package, ambiguous
 * characters narrow as UAX #11 advises without context; General Category and Script from V8's
 * Unicode property escapes; look-alikes from the `unhomoglyph` package's table (Unicode UTS #39
 * confusables.txt, Unicode 13) and NFKC.
 */
import { eastAsianWidth } from 'get-east-asian-width';
import skeletons = require('unhomoglyph/data.json');
import { codePointName } from './input';

/** Characters that take no column of their own: combining marks, default-ignorable code points. */
const ZERO_WIDTH = /[\p{M}\p{Default_Ignorable_Code_Point}]/u;

/** Columns a tab is counted as: the most it takes in a terminal (tab stops every 8 columns). */
const TAB_COLUMNS = 8;

/** Columns of the code points met so far (a text holds few distinct characters). */
const widthCache = new Map<number, number>();

/** Columns code point `cp` (U+0300 or above) takes: 0, 1 or 2 (see {@link widestLine}). */
function widthOf(cp: number): number {
  const known = widthCache.get(cp);
  if (known !== undefined) return known;
  const width = ZERO_WIDTH.test(String.fromCodePoint(cp)) ? 0 : eastAsianWidth(cp, { ambiguousAsWide: false });
  if (widthCache.size < 65_536) widthCache.set(cp, width);
  return width;
}

/**
 * The widest line of `text` in terminal columns, where it is shown in a monospace font: East Asian
 * wide and full-width characters take 2, combining marks and default-ignorable code points 0, a
 * tab 8 (the most it takes), every other character 1. One pass over the text.
 * @returns `columns` of the widest line and `line`, its 1-based number (the first of equals; 1 for empty text).
 */
export function widestLine(text: string): { line: number; columns: number } {
  let widest = { line: 1, columns: 0 };
  let line = 1;
  let width = 0;
  for (let i = 0; i <= text.length; i++) {
    const unit = i < text.length ? text.charCodeAt(i) : 0x0a;
    if (unit === 0x0a) {
      if (width > widest.columns) widest = { line, columns: width };
      line++;
      width = 0;
    } else if (unit < 0x300) {
      width += unit === 0x09 ? TAB_COLUMNS : 1;
    } else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      width += widthOf(cp);
    }
  }
  return widest;
}

/** Terminal columns of one line (no line break in it), as {@link widestLine} counts them. */
export function columns(line: string): number {
  return widestLine(line).columns;
}

/**
 * Scripts a word's letters are told apart by (Unicode Script property). Letters of scripts not
 * named here count as "another script"; Common and Inherited characters (digits, punctuation,
 * marks) belong to none.
 */
const SCRIPTS: readonly { name: string; any: RegExp }[] = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Coptic',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Canadian_Aboriginal',
  'Runic',
  'Ogham',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
  'Lisu',
  'Vai',
  'Tifinagh',
  'Nko',
  'Osage',
  'Deseret',
].map((name) => ({ name, any: new RegExp(`\\p{Script=${name}}`, 'u') }));

/**
 * Script sets one word may mix and still read as one writing system (UTS #39 § 5.2, "Highly
 * Restrictive"): Japanese, Chinese with Bopomofo, Korean, each with Latin.
 */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** The script of letter `ch`, as SCRIPTS names it ("another script" for one not listed). */
function scriptOf(ch: string): string {
  return SCRIPTS.find((s) => s.any.test(ch))?.name ?? 'another script';
}

/**
 * The ASCII letters or digits character `ch` (outside ASCII) looks like, or '' when it looks like
 * none: its skeleton in Unicode's confusables (UTS #39 confusables.txt, as the unhomoglyph
 * package ships it), or its NFKC form (full-width `ｆ`, mathematical `𝐟`), when that is ASCII
 * letters or digits.
 */
function asciiLookalike(ch: string): string {
  const ascii = (s: string | undefined): s is string => s !== undefined && /^[A-Za-z0-9]+$/.test(s);
  const skeleton = Object.prototype.hasOwnProperty.call(skeletons, ch) ? skeletons[ch] : undefined;
  if (ascii(skeleton)) return skeleton;
  const compatible = ch.normalize('NFKC');
  return ascii(compatible) ? compatible : '';
}

/**
 * Every character outside ASCII that {@link asciiLookalike} finds a look-alike for: those of the
 * confusables table, full-width ASCII letters and digits (U+FF10–U+FF5A) and the Mathematical
 * Alphanumeric Symbols (U+1D400–U+1D7FF), checked one by one when the text has one of them.
 */
const LOOKALIKE_CANDIDATE = new RegExp(
  `[${Object.keys(skeletons)
    .filter((ch) => [...ch].length === 1 && ch.codePointAt(0)! > 0x7f && asciiLookalike(ch) !== '')
    .map((ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`)
    .join('')}\\u{ff10}-\\u{ff5a}\\u{1d400}-\\u{1d7ff}]`,
  'gu',
);

/** A word that does not read as what it is, and why, in a sentence. */
export interface MisleadingWord {
  word: string;
  /** 1-based line of the text where it is. */
  line: number;
  /** Why, e.g. "the first letter is Cyrillic с (U+0441), which looks like Latin c". */
  why: string;
}

/** How many misleading words are reported at most (the rest are counted). */
export const MAX_MISLEADING_WORDS = 10;

/** A word holding a character outside ASCII, between white space and the separators of commands. */
const NON_ASCII_WORD = /[^\s;&|()`{}!]*[^\x00-\x7f][^\s;&|()`{}!]*/gu;

/**
 * Words of shell text that do not read as what they are, in order, at most MAX_MISLEADING_WORDS
 * (`more` is true when there are others):
 * - a word whose letters come from several scripts (other than Latin with Han and the Japanese,
 *   Chinese or Korean scripts), anywhere: `pаypal` with a Cyrillic `а`;
 * - a word in a command position (the first word of a line or after `;`, `&`, `|`, `(`, `` ` ``,
 *   `$(`, `{`, `!`) written with a letter outside ASCII that looks like ASCII letters or digits
 *   (Unicode confusables, or NFKC for full-width letters): `сat` in Cyrillic alone.
 * Words are split at white space and at those separators; quotes are not interpreted. Only words
 * holding a character outside ASCII are looked at (ASCII words read as themselves).
 */
export function misleadingWords(text: string): { words: MisleadingWord[]; more: boolean } {
  const words: MisleadingWord[] = [];
  for (const m of text.matchAll(NON_ASCII_WORD)) {
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    // What stands before the word on its line, up to 64 characters back: blanks alone (the
    // start of the line, or as good as) or a separator of commands, then blanks.
    const before = text.slice(Math.max(lineStart, m.index - 64), m.index);
    const commandPosition = /^[ \t]*$/.test(before) || /[;&|(`{!][ \t]*$/.test(before);
    const why = misleading(m[0], commandPosition);
    if (!why) continue;
    if (words.length === MAX_MISLEADING_WORDS) return { words, more: true };
    words.push({ word: m[0], line: lineNumber(text, m.index), why });
  }
  return { words, more: false };
}

/** The 1-based line of UTF-16 index `at` in `text`. */
function lineNumber(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Scripts one word's letters are looked through for, at most (the message names this many). */
const MAX_SCRIPTS_NAMED = 4;

/** Letters of none of `scripts` (names from SCRIPTS), by the scripts' names: `v`-mode classes, made once each. */
const lettersOutside = new Map<string, RegExp>();

/** The regular expression of letters of none of `scripts`. */
function outside(scripts: readonly string[]): RegExp {
  const key = scripts.join(',');
  let re = lettersOutside.get(key);
  if (!re) {
    const known = scripts.filter((name) => name !== 'another script');
    const property = (names: readonly string[]) => names.map((name) => `\\p{Script=${name}}`).join('');
    re = scripts.includes('another script')
      ? // Letters of another script are found already: only those of a listed script not found yet are new.
        new RegExp(`[${property(SCRIPTS.map((s) => s.name).filter((name) => !known.includes(name)))}]`, 'u')
      : new RegExp(`[\\p{L}--[${property(known)}]]`, 'v');
    if (lettersOutside.size < 1024) lettersOutside.set(key, re);
  }
  return re;
}

/** Why `word` misleads (see misleadingWords), or undefined when it reads as what it is. */
function misleading(word: string, commandPosition: boolean): string | undefined {
  // The scripts of its letters in the order they first appear (up to MAX_SCRIPTS_NAMED), each with
  // where (UTF-16 index): one search per script found, for the first letter of none found yet.
  const present: { name: string; at: number }[] = [];
  for (let at = word.search(/\p{L}/u); at >= 0 && present.length < MAX_SCRIPTS_NAMED; ) {
    present.push({ name: scriptOf(String.fromCodePoint(word.codePointAt(at)!)), at });
    at = word.search(outside(present.map((p) => p.name)));
  }
  const names = present.map((s) => s.name);
  const mixed = names.length > 1 && !ALLOWED_MIXES.some((allowed) => names.every((n) => allowed.includes(n)));
  if (!mixed && !commandPosition) return undefined;
  // The first character outside ASCII that looks like ASCII letters or digits, if any.
  let lookalike: number | undefined;
  for (const m of word.matchAll(LOOKALIKE_CANDIDATE)) {
    if (asciiLookalike(m[0]) !== '') {
      lookalike = m.index;
      break;
    }
  }
  if (mixed)
    return `its letters mix ${names.map((n) => n.replace('_', ' ')).join(' and ')}: ${letterText(word, lookalike ?? present[1]!.at)}`;
  if (lookalike !== undefined) return `it is in a command's place and ${letterText(word, lookalike)}`;
  return undefined;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** What the letter at UTF-16 index `at` of `word` is: "the first character is Cyrillic с (U+0441), which looks like Latin c". */
function letterText(word: string, at: number): string {
  const ch = String.fromCodePoint(word.codePointAt(at)!);
  const i = [...word.slice(0, at)].length;
  const place = i < ORDINALS.length ? `the ${ORDINALS[i]} character` : `character ${i + 1}`;
  const looks = ch.codePointAt(0)! > 0x7f ? asciiLookalike(ch) : '';
  const like = looks ? `, which looks like ${/^[0-9]+$/.test(looks) ? 'the digit' : 'Latin'} ${looks}` : '';
  return `${place} is ${scriptOf(ch).replace('_', ' ')} ${ch} (${codePointName(ch.codePointAt(0)!)})${like}`;
}

/**
 * The words of shell text in a command's place, in order, each once: the first word of each line
 * and the first after `;` `&` `|` `(` `` ` `` `$(` `{` `!`, past variable assignments (`A=1 cmd`).
 * Quotes are not interpreted, so a separator inside quotes starts a word too (a word more is
 * named, never one less). At most `max` words.
 */
export function commandWords(text: string, max = 64): string[] {
  const words: string[] = [];
  for (const line of text.split('\n')) {
    let commandPosition = true;
    for (const token of line.split(/(\$\(|[;&|()`{}!]|\s+)/)) {
      if (token === '' || /^\s+$/.test(token)) continue;
      if (/^(?:\$\(|[;&|(`{!])$/.test(token)) {
        commandPosition = true;
        continue;
      }
      if (token === '}' || token === ')') continue;
      if (commandPosition && /^[A-Za-z_][A-Za-z0-9_]*=/.test(token)) continue;
      if (commandPosition && !words.includes(token)) {
        words.push(token);
        if (words.length >= max) return words;
      }
      commandPosition = false;
    }
  }
  return words;
}
