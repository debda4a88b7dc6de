/**
 * Parsing one markdown note for wiki links (plain Node, no `vscode` import).
 *
 * Where code is comes from a real markdown parser (markdown-it, CommonMark + GFM tables, HTML
 * enabled): fenced code (``` and ~~~), indented code and HTML comment blocks are whole-line
 * regions; inside each paragraph, heading and table row, code spans and HTML comments are found
 * with CommonMark's rules (a backtick string closes only on a string of the same length; backslash
 * escapes do not apply inside code). Wiki links there are not links.
 *
 * Grammar (Obsidian / Foam): `[[target]]`, `[[target|alias]]`, `[[target\|alias]]` (inside tables),
 * `[[target#Heading]]`, `[[target#^block]]`, `[[#Heading]]` (same note), `![[embed]]`,
 * `[[target.md]]`, `[[dir/target]]`. A link lies on one line; its text contains no `[` or `]`.
 * Single brackets (`[text]`, `[^1]`) are never wiki links. `[[]]`, `[[|x]]` and `[[#]]` are not
 * links. A `[[` preceded by a backslash is escaped (not a link).
 *
 * All positions are LSP positions: 0-based line, 0-based UTF-16 character.
 * One concept in one file (over 400 lines): the parse of one note.
 */

import { load as loadYaml, JSON_SCHEMA } from 'js-yaml';
import MarkdownIt from 'markdown-it';
import type { Range } from '../types';
import { splitLines } from '../position';

/**
 * Which side of `|` is the target: `'target-first'` (`[[target|alias]]`, Obsidian and Foam, the
 * default) or `'alias-first'` (`[[alias|target]]`, Dendron and MediaWiki-style vaults).
 */
export type AliasOrder = 'target-first' | 'alias-first';

/** A link's anchor: a heading (`#Heading`, text as written) or a block (`#^id`, id without `^`). */
export type WikiLinkAnchor = { readonly kind: 'heading'; readonly text: string } | { readonly kind: 'block'; readonly id: string };

/** One wiki link as written in a note. */
export interface WikiLink {
  /** The link as written, e.g. `![[note#Heading|alias]]`. */
  readonly raw: string;
  /** `![[…]]`: an embed (it counts as a reference like any link). */
  readonly embed: boolean;
  /** The target path as written, trimmed, without the anchor (`dir/note`, `note.md`); `''` for a same-note link `[[#Heading]]`. */
  readonly target: string;
  readonly anchor?: WikiLinkAnchor;
  /** The alias (display text), trimmed; for embeds it may be a size like `300`. */
  readonly alias?: string;
  /** The whole link: from `!` (embeds) or `[[` to after `]]`. */
  readonly range: Range;
  /** The target text including its anchor (`note#Heading`), trimmed; never includes the `\` of `\|`. */
  readonly targetRange: Range;
}

/** A heading: `level` 1–6, `text` as written (inline markup kept, trailing `^id` removed), its line and the line's range. */
export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
  readonly range: Range;
}

/**
 * A block anchor `^id` ending a line (Obsidian, Foam): `id` without `^`; `line` is the line the
 * `^id` is written on; `range` is the block it names, from the block's first line (character 0) to
 * the end of the anchor's line. The block is, for an anchor after text on a line, the paragraph or
 * heading it ends (`> text ^id` is its own line); for an anchor alone on its line, the top-level
 * block it continues (a list, blockquote or table) or the one right before it (directly or after
 * one blank line: a fence, a paragraph). Sources: Obsidian "Link to blocks", Foam block-anchors.md.
 */
export interface BlockAnchor {
  readonly id: string;
  readonly line: number;
  readonly range: Range;
}

/** Why a region is not searched for links. */
export type IgnoredKind = 'fence' | 'indented-code' | 'inline-code' | 'html-comment';

/** A region where links are ignored (for tests and diagnostics). */
export interface IgnoredRegion {
  readonly kind: IgnoredKind;
  readonly range: Range;
}

/** The parse of one note. */
export interface ParsedNote {
  /** Number of lines (LSP rule: a trailing newline adds an empty last line). */
  readonly lineCount: number;
  readonly links: readonly WikiLink[];
  readonly headings: readonly Heading[];
  readonly blocks: readonly BlockAnchor[];
  /** `title:` from the front matter, else the first level-1 heading's text; `undefined` when neither exists. */
  readonly title?: string;
  /** The YAML front matter's lines `[start, end]` inclusive (0-based), when the note starts with `---`. */
  readonly frontMatter?: { readonly startLine: number; readonly endLine: number };
  /**
   * The note's other names from its front matter (`aliases:` as a list or one string, or `alias:`;
   * Obsidian's and Foam's property), each with the 0-based line it is written on. Empty when the
   * front matter is missing or is not valid YAML.
   */
  readonly aliases: ReadonlyArray<{ readonly text: string; readonly line: number }>;
  readonly ignored: readonly IgnoredRegion[];
  /**
   * Present only when the note was indexed partly (it is over {@link NoteLimits}): lines
   * `[0, indexedLines)` were parsed, later lines were not searched for links, headings, block
   * anchors or code. Absent for every note within the limits.
   */
  readonly partial?: PartialParse;
}

/** How much of a note over the limits was parsed, and which limit it went over. */
export interface PartialParse {
  /** Lines `[0, indexedLines)` (0-based, exclusive end) were parsed; whole lines only. */
  readonly indexedLines: number;
  /**
   * `'size'`: the text is over `maxChars`; `'items'`: the parsed lines hold more than `maxItems`
   * links, headings, block anchors and code regions; `'parser-failed'`: the parser failed on the
   * note (the index's problems say why) and nothing of it is indexed.
   */
  readonly reason: 'size' | 'items' | 'parser-failed';
}

/**
 * What a note may hold and still be parsed whole. Bigger notes are parsed partly, from the start,
 * in whole lines ({@link ParsedNote.partial}): the parse time and memory, and the cost of handing a
 * parse from a worker thread to the extension host thread, grow with these.
 */
export interface NoteLimits {
  /** Most UTF-16 code units parsed (the text up to the last line break at or before it). */
  readonly maxChars: number;
  /** Most links + headings + block anchors + ignored regions kept (cut before the line where the next would start). */
  readonly maxItems: number;
}

/** The limits the wiki-link index parses notes with: 512 KiB of text (524 288 UTF-16 code units) and 20 000 items. */
export const NOTE_LIMITS: NoteLimits = Object.freeze({ maxChars: 512 * 1024, maxItems: 20_000 });

/** Options of {@link parseNote}. */
export interface ParseOptions {
  /** Default `'target-first'`. */
  readonly aliasOrder?: AliasOrder;
  /** Parse only this much of a bigger note (the index uses {@link NOTE_LIMITS}). Default: the whole note. */
  readonly limits?: NoteLimits;
}

// Only markdown-it's block rules run: the parse uses block tokens (their line maps, types and an
// inline token's raw content), never the inline children, which cost most of the time and memory.
const md = new MarkdownIt('commonmark', { html: true }).enable('table');
md.core.ruler.disable(['inline', 'text_join']);

interface Span {
  start: number; // UTF-16 offset in the line
  end: number; // exclusive
  kind: IgnoredKind;
}

/**
 * Parse a note's text (any line endings; a leading BOM is ignored by position math since it is one
 * UTF-16 unit like in VS Code). A note over the limits is parsed partly (see
 * {@link ParsedNote.partial}); `lineCount` is always the whole note's. Never throws on any input.
 */
export function parseNote(text: string, options: ParseOptions = {}): ParsedNote {
  const limits = options.limits ?? { maxChars: Infinity, maxItems: Infinity };
  const aliasOrder = options.aliasOrder ?? 'target-first';
  if (text.length <= limits.maxChars) return capItems(new NoteParser(splitLines(text), aliasOrder).parse(), limits.maxItems);
  const cut = lineBreakAtOrBefore(text, limits.maxChars);
  const lines = cut < 0 ? [] : splitLines(text.slice(0, cut));
  const parsed = new NoteParser(lines, aliasOrder).parse();
  const capped = capItems(parsed, limits.maxItems);
  return capped.partial ? { ...capped, lineCount: countLines(text) } : { ...parsed, lineCount: countLines(text), partial: { indexedLines: lines.length, reason: 'size' } };
}

/** Start of the last line terminator (`\n`, `\r\n` or `\r`) that starts at or before `at`, or -1. */
function lineBreakAtOrBefore(text: string, at: number): number {
  for (let i = Math.min(at, text.length - 1); i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return i > 0 && text.charCodeAt(i - 1) === 0x0d ? i - 1 : i;
    if (c === 0x0d) return i;
  }
  return -1;
}

/** Number of lines by LSP's rule (`splitLines(text).length`) without making the lines. */
function countLines(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) n++;
    else if (c === 0x0d) {
      n++;
      if (text.charCodeAt(i + 1) === 0x0a) i++;
    }
  }
  return n;
}

/**
 * `parsed` unchanged when it holds at most `maxItems` links, headings, block anchors and ignored
 * regions; else only the items on lines before the line where item number `maxItems + 1` (in line
 * order) starts, marked partial.
 */
function capItems(parsed: ParsedNote, maxItems: number): ParsedNote {
  const { links, headings, blocks, ignored } = parsed;
  if (links.length + headings.length + blocks.length + ignored.length <= maxItems) return parsed;
  const starts = new Int32Array(links.length + headings.length + blocks.length + ignored.length);
  let k = 0;
  for (const l of links) starts[k++] = l.range.start.line;
  for (const h of headings) starts[k++] = h.line;
  for (const b of blocks) starts[k++] = b.line;
  for (const r of ignored) starts[k++] = r.range.start.line;
  starts.sort();
  const end = starts[maxItems]!;
  return {
    ...parsed,
    links: links.filter((l) => l.range.start.line < end),
    headings: headings.filter((h) => h.line < end),
    blocks: blocks.filter((b) => b.line < end),
    ignored: ignored.filter((r) => r.range.start.line < end),
    partial: { indexedLines: Math.min(end, parsed.partial?.indexedLines ?? end), reason: 'items' },
  };
}

/** A markdown-it block token's line span, for finding the block a `^id` anchor names. */
interface BlockSpan {
  readonly type: string;
  readonly level: number;
  /** First line (0-based). */
  readonly a: number;
  /** Line after the last (exclusive). */
  readonly b: number;
}

/**
 * One note's parse, in named steps: the front matter; the markdown blocks (whole-line code and
 * comment regions, code spans and comments inside inline blocks, headings); then, line by line
 * outside those, the wiki links and the block anchors.
 */
class NoteParser {
  private readonly n: number;
  /** Per line: the whole-line code or comment region it belongs to, if any. */
  private readonly lineKind: Array<IgnoredKind | undefined>;
  /** Per line: the code spans and comments on it (no entry for a line without any). */
  private readonly spans: Array<Span[] | undefined> = [];
  private readonly ignored: IgnoredRegion[] = [];
  private readonly headings: Heading[] = [];
  private readonly blockSpans: BlockSpan[] = [];
  private spansByLine?: { inner: Int32Array; containing: Int32Array; endingAt: Int32Array };
  private readonly links: WikiLink[] = [];
  private readonly blocks: BlockAnchor[] = [];
  private frontMatter: { startLine: number; endLine: number } | undefined;
  private frontMatterTitle: string | undefined;

  constructor(
    private readonly lines: readonly string[],
    private readonly aliasOrder: AliasOrder,
  ) {
    this.n = lines.length;
    this.lineKind = new Array<IgnoredKind | undefined>(this.n).fill(undefined);
  }

  parse(): ParsedNote {
    this.readFrontMatter();
    this.readBlocks();
    for (let line = 0; line < this.n; line++) {
      if (this.lineKind[line] !== undefined) continue;
      this.readLinks(line);
      if (this.frontMatter && line <= this.frontMatter.endLine) continue;
      this.readBlockAnchor(line);
    }
    const h1 = this.headings.find((h) => h.level === 1);
    const title = this.frontMatterTitle ?? (h1 && h1.text ? h1.text : undefined);
    this.ignored.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
    const aliases = this.frontMatter ? frontMatterAliases(this.lines, this.frontMatter.endLine) : [];
    return { lineCount: this.n, links: this.links, headings: this.headings, blocks: this.blocks, title, frontMatter: this.frontMatter, aliases, ignored: this.ignored };
  }

  /** Front matter: `---` on the first line, closed by `---` or `...`; its `title:` if any. */
  private readFrontMatter(): void {
    const { lines, n } = this;
    if (!(n > 1 && /^---\s*$/.test(lines[0]!.replace(/^\uFEFF/, '')))) return;
    for (let i = 1; i < n; i++) {
      if (/^(---|\.\.\.)\s*$/.test(lines[i]!)) {
        this.frontMatter = { startLine: 0, endLine: i };
        break;
      }
    }
    if (!this.frontMatter) return;
    for (let i = 1; i < this.frontMatter.endLine; i++) {
      // trim(), not a lazy match before `\s*$`: that is quadratic in a run of spaces.
      const value = lines[i]!.startsWith('title:') ? lines[i]!.slice('title:'.length).trim() : '';
      if (value) {
        this.frontMatterTitle = value.replace(/^(['"])(.*)\1$/, '$2').trim() || undefined;
        break;
      }
    }
  }

  /** The markdown blocks (front matter blanked): code and comment regions, inline code spans and comments, headings, block spans. */
  private readBlocks(): void {
    const { lines, n } = this;
    const fm = this.frontMatter;
    const source = fm ? lines.map((l, i) => (i <= fm.endLine ? '' : l)).join('\n') : lines.join('\n');
    const tokens = md.parse(source, {});
    for (let t = 0; t < tokens.length; t++) {
      const tok = tokens[t]!;
      const map = tok.map;
      if (!map) continue;
      const [a, b] = map;
      if (tok.nesting >= 0 && tok.type !== 'inline') this.blockSpans.push({ type: tok.type, level: tok.level, a, b });
      switch (tok.type) {
        case 'fence':
        case 'code_block':
          this.markLines(a, Math.min(b, n), tok.type === 'fence' ? 'fence' : 'indented-code');
          break;
        case 'html_block':
          if (tok.content.trimStart().startsWith('<!--')) this.markLines(a, Math.min(b, n), 'html-comment');
          else this.scanInline(a, Math.min(b, n), false);
          break;
        case 'inline':
        case 'tr_open':
          this.scanInline(a, Math.min(b, n), true);
          break;
        case 'heading_open': {
          const inline = tokens[t + 1];
          const level = Number(tok.tag.slice(1));
          let text = inline && inline.type === 'inline' ? inline.content.trim() : '';
          text = withoutBlockId(text);
          if (a < n) this.headings.push({ level, text, line: a, range: this.lineRange(a) });
          break;
        }
        default:
          break;
      }
    }
  }

  private lineRange(line: number): Range {
    return { start: { line, character: 0 }, end: { line, character: this.lines[line]!.length } };
  }

  /** Lines [a, b) are one whole-line region of `kind`. */
  private markLines(a: number, b: number, kind: IgnoredKind): void {
    if (a >= b) return;
    for (let i = a; i < b; i++) this.lineKind[i] = kind;
    this.ignored.push({ kind, range: { start: { line: a, character: 0 }, end: { line: b - 1, character: this.lines[b - 1]!.length } } });
  }

  /** Find code spans (when `code`) and HTML comments in lines [a, b) taken as one inline block. */
  private scanInline(a: number, b: number, code: boolean): void {
    if (a >= b) return;
    const block = new InlineBlock(this.lines, a, b);
    const text = block.text;
    let i = 0;
    const len = text.length;
    while (i < len) {
      const c = text.charCodeAt(i);
      if (c === 0x5c /* \ */) {
        i += 2; // an escaped character is literal (backslash escapes do not apply inside code; we are outside)
        continue;
      }
      if (code && c === 0x60 /* ` */) {
        let k = i;
        while (k < len && text.charCodeAt(k) === 0x60) k++;
        const run = k - i;
        const close = closingBackticks(text, k, run);
        if (close >= 0) {
          this.recordSpan(block, i, close + run, 'inline-code');
          i = close + run;
        } else {
          i = k; // no closer: the backticks are literal
        }
        continue;
      }
      if (c === 0x3c /* < */ && text.startsWith('<!--', i)) {
        const endAt = htmlCommentEnd(text, i);
        if (endAt > 0) {
          this.recordSpan(block, i, endAt, 'html-comment');
          i = endAt;
          continue;
        }
      }
      i++;
    }
  }

  /** Offsets [start, end) of `block` are an ignored span of `kind`, on each line it covers. */
  private recordSpan(block: InlineBlock, start: number, end: number, kind: IgnoredKind): void {
    const s = block.position(start);
    const e = block.position(end);
    this.ignored.push({ kind, range: { start: s, end: e } });
    for (let line = s.line; line <= e.line; line++) {
      const from = line === s.line ? s.character : 0;
      const to = line === e.line ? e.character : this.lines[line]!.length;
      (this.spans[line] ??= []).push({ start: from, end: to, kind });
    }
  }

  /** True when [from, to) on `line` overlaps a code span or comment. */
  private inSpan(line: number, from: number, to: number): boolean {
    return this.spans[line]?.some((s) => from < s.end && to > s.start) ?? false;
  }

  /** The wiki links on `line` outside code spans and comments, not escaped. */
  private readLinks(line: number): void {
    const text = this.lines[line]!;
    if (!text.includes('[[')) return;
    const LINK_RE = /\[\[([^[\]\r\n]*)\]\]/g;
    for (let m = LINK_RE.exec(text); m; m = LINK_RE.exec(text)) {
      const open = m.index;
      const close = open + m[0].length;
      if (precededByBackslash(text, open)) continue;
      const embed = open > 0 && text[open - 1] === '!' && !precededByBackslash(text, open - 1);
      const start = embed ? open - 1 : open;
      if (this.inSpan(line, start, close)) continue;
      const link = parseLinkBody(m[1]!, open + 2, line, this.aliasOrder);
      if (!link) continue;
      this.links.push({
        raw: text.slice(start, close),
        embed,
        ...link,
        range: { start: { line, character: start }, end: { line, character: close } },
      });
    }
  }

  /** A `^id` ending `line` (outside code spans), with the block it names. */
  private readBlockAnchor(line: number): void {
    const text = this.lines[line]!;
    const bm = /(?:^|\s)\^([A-Za-z0-9][A-Za-z0-9-]*)\s*$/.exec(text);
    if (!bm) return;
    const at = text.lastIndexOf('^' + bm[1]);
    if (this.inSpan(line, at, at + bm[1]!.length + 1)) return;
    const alone = /^[\s>]*$/.test(text.slice(0, at));
    const start = alone ? this.ownLineBlockStart(line) : this.innerBlockStart(line);
    this.blocks.push({ id: bm[1]!, line, range: { start: { line: start, character: 0 }, end: this.lineRange(line).end } });
  }

  /** First line of the innermost paragraph or heading containing `line` (the line itself if none). */
  private innerBlockStart(line: number): number {
    const start = this.spanIndex().inner[line]!;
    return start >= 0 ? start : line;
  }

  /** First line of the top-level block an anchor alone on `line` names (see {@link BlockAnchor}). */
  private ownLineBlockStart(line: number): number {
    const { containing, endingAt } = this.spanIndex();
    if (containing[line]! >= 0) return containing[line]!;
    const blankBefore = line > 0 && this.lines[line - 1]!.trim() === '';
    if (endingAt[line]! >= 0) return endingAt[line]!;
    if (blankBefore && line > 0 && endingAt[line - 1]! >= 0) return endingAt[line - 1]!;
    return line;
  }

  /**
   * The block spans by line, built once (so a note with many `^id` anchors costs linear time, not
   * anchors × blocks): per line, the first line of the smallest paragraph, heading or table row
   * containing it; of the top-level block strictly containing it (`a < line < b`); and of the
   * first top-level block ending there (`b === line`). -1 where none.
   */
  private spanIndex(): { inner: Int32Array; containing: Int32Array; endingAt: Int32Array } {
    if (this.spansByLine) return this.spansByLine;
    const n = this.n;
    const inner = new Int32Array(n + 1).fill(-1);
    const innerSize = new Int32Array(n + 1);
    const containing = new Int32Array(n + 1).fill(-1);
    const endingAt = new Int32Array(n + 1).fill(-1);
    for (const s of this.blockSpans) {
      const b = Math.min(s.b, n);
      if (s.type === 'paragraph_open' || s.type === 'heading_open' || s.type === 'tr_open') {
        for (let l = Math.max(s.a, 0); l < b; l++) {
          if (inner[l] === -1 || s.b - s.a < innerSize[l]!) {
            inner[l] = s.a;
            innerSize[l] = s.b - s.a;
          }
        }
      }
      if (s.level === 0) {
        for (let l = Math.max(s.a + 1, 0); l < b; l++) if (containing[l] === -1) containing[l] = s.a;
        if (s.b >= 0 && s.b <= n && endingAt[s.b] === -1) endingAt[s.b] = s.a;
      }
    }
    this.spansByLine = { inner, containing, endingAt };
    return this.spansByLine;
  }
}

/** Lines [a, b) of a note joined by `\n` as one inline block, with offsets mapped back to positions. */
class InlineBlock {
  readonly text: string;
  private readonly lineStarts: number[] = [];

  constructor(
    lines: readonly string[],
    private readonly a: number,
    b: number,
  ) {
    this.text = lines.slice(a, b).join('\n');
    let off = 0;
    for (let i = a; i < b; i++) {
      this.lineStarts.push(off);
      off += lines[i]!.length + 1;
    }
  }

  /** The LSP position of offset `o` in {@link text}. */
  position(o: number): { line: number; character: number } {
    // The last line starting at or before `o` (binary search: a block may have many lines and spans).
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.a + lo, character: o - this.lineStarts[lo]! };
  }
}

/** Offset of the first run of exactly `run` backticks at or after `from` in `text` (CommonMark code span closer), or -1. */
function closingBackticks(text: string, from: number, run: number): number {
  const len = text.length;
  let j = from;
  while (j < len) {
    if (text.charCodeAt(j) === 0x60) {
      let m = j;
      while (m < len && text.charCodeAt(m) === 0x60) m++;
      if (m - j === run) return j;
      j = m;
    } else j++;
  }
  return -1;
}

/** Offset after the HTML comment opening at `i` (`<!-->` and `<!--->` are complete comments), or -1 when it never closes. */
function htmlCommentEnd(text: string, i: number): number {
  if (text.startsWith('<!-->', i)) return i + 5;
  if (text.startsWith('<!--->', i)) return i + 6;
  const e = text.indexOf('-->', i + 4);
  return e < 0 ? -1 : e + 3;
}

/** `aliases` (or `alias`) of the front matter in `lines[1 .. endLine-1]`, parsed as YAML (JSON schema: no custom types). */
function frontMatterAliases(lines: readonly string[], endLine: number): Array<{ text: string; line: number }> {
  let data: unknown;
  try {
    data = loadYaml(lines.slice(1, endLine).join('\n'), { schema: JSON_SCHEMA });
  } catch {
    return [];
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const record = data as Record<string, unknown>;
  const key = 'aliases' in record ? 'aliases' : 'alias' in record ? 'alias' : undefined;
  if (!key) return [];
  const raw = record[key];
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string | number => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number').map((v) => String(v).trim());
  let keyLine = 1;
  for (let i = 1; i < endLine; i++) {
    if (new RegExp(`^${key}\\s*:`).test(lines[i]!)) {
      keyLine = i;
      break;
    }
  }
  return values.map((text) => {
    let line = keyLine;
    for (let i = keyLine; i < endLine; i++) {
      if (lines[i]!.includes(text)) {
        line = i;
        break;
      }
    }
    return { text, line };
  });
}

function precededByBackslash(text: string, index: number): boolean {
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
function parseLinkBody(
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
function withoutBlockId(text: string): string {
  const caret = text.lastIndexOf('^');
  if (caret <= 0 || !/\s/.test(text[caret - 1]!) || !/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(text.slice(caret + 1))) return text;
  return text.slice(0, caret).trimEnd();
}
