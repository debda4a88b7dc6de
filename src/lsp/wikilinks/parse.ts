/**
 * Parsing one markdown note for wiki links (plain Node, no `vscode` import): {@link parseNote},
 * within the {@link NoteLimits} the index parses with. What it gives is `./parsedNote.ts`.
 *
 * Where code is comes from a real markdown parser (markdown-it, CommonMark + GFM tables, HTML
 * enabled): fenced code (``` and ~~~), indented code and HTML comment blocks are whole-line
 * regions; inside each paragraph, heading and table row, code spans and HTML comments are found
 * with CommonMark's rules (`./inlineSpans.ts`). Wiki links there are not links.
 *
 * Grammar (Obsidian / Foam; a link's body: `./linkSyntax.ts`): `[[target]]`, `[[target|alias]]`,
 * `[[target\|alias]]` (inside tables), `[[target#Heading]]`, `[[target#^block]]`, `[[#Heading]]`
 * (same note), `![[embed]]`, `[[target.md]]`, `[[dir/target]]`. A link lies on one line; its text
 * contains no `[` or `]`. Single brackets (`[text]`, `[^1]`) are never wiki links. `[[]]`, `[[|x]]`
 * and `[[#]]` are not links. A `[[` preceded by a backslash is escaped (not a link).
 *
 * All positions are LSP positions: 0-based line, 0-based UTF-16 character.
 */

import MarkdownIt from 'markdown-it';
import type { Range } from '../types';
import { splitLines } from '../position';
import { frontMatterAliases, readFrontMatter } from './frontMatter';
import { findInlineSpans, InlineBlock } from './inlineSpans';
import { parseLinkBody, precededByBackslash, withoutBlockId } from './linkSyntax';
import type { AliasOrder, BlockAnchor, Heading, IgnoredKind, IgnoredRegion, ParsedNote, WikiLink } from './parsedNote';

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
  return capped.partial
    ? { ...capped, lineCount: countLines(text) }
    : { ...parsed, lineCount: countLines(text), partial: { indexedLines: lines.length, reason: 'size' } };
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

  constructor(
    private readonly lines: readonly string[],
    private readonly aliasOrder: AliasOrder,
  ) {
    this.n = lines.length;
    this.lineKind = new Array<IgnoredKind | undefined>(this.n).fill(undefined);
  }

  parse(): ParsedNote {
    const fm = readFrontMatter(this.lines);
    this.frontMatter = fm?.range;
    this.readBlocks();
    for (let line = 0; line < this.n; line++) {
      if (this.lineKind[line] !== undefined) continue;
      this.readLinks(line);
      if (this.frontMatter && line <= this.frontMatter.endLine) continue;
      this.readBlockAnchor(line);
    }
    const h1 = this.headings.find((h) => h.level === 1);
    const title = fm?.title ?? (h1 && h1.text ? h1.text : undefined);
    this.ignored.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
    const aliases = this.frontMatter ? frontMatterAliases(this.lines, this.frontMatter.endLine) : [];
    return {
      lineCount: this.n,
      links: this.links,
      headings: this.headings,
      blocks: this.blocks,
      title,
      frontMatter: this.frontMatter,
      aliases,
      ignored: this.ignored,
    };
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
    findInlineSpans(block.text, code, (start, end, kind) => this.recordSpan(block, start, end, kind));
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
