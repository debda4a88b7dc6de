/**
 * What the parse of one markdown note gives (plain Node, no `vscode` import): its wiki links,
 * headings, block anchors, front matter, the regions where links are ignored, and how much of a
 * note over the limits was parsed. `./parse.ts` makes it; the index, the worker's pieces and the
 * editor features read it.
 *
 * All positions are LSP positions: 0-based line, 0-based UTF-16 character.
 */

import type { Range } from '../types';

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
   * Present only when the note was indexed partly (it is over the `NoteLimits` it was parsed
   * with, see `./parse.ts`): lines `[0, indexedLines)` were parsed, later lines were not searched
   * for links, headings, block anchors or code. Absent for every note within the limits.
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
