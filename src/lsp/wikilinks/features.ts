/**
 * Symbols and diagnostics of markdown notes from the `md-links` index (plain Node, no `vscode`
 * import), the index that serves `dsh_lsp` for notes; no call hierarchy (notes have no calls).
 *
 * - Outline: a note's headings nested by level (a `##` under the `#` before it), each spanning its
 *   section (to the line before the next heading of the same or a higher level); block anchors
 *   (`^id`) as children of the section they are in. Kind `String` for headings (as VS Code's
 *   markdown outline), `Key` for block anchors (named `^id`).
 * - Workspace symbols: every note by its file name (`detail: 'file name'`), its title when it
 *   differs (front matter `title:` or the first `#` heading; `detail: 'title'`) and each alias of
 *   its front matter (`detail: 'alias'`), kind `File`, `containerName` the note's folder. A note's
 *   file name and alias symbols sit at the note's start, where `dsh_lsp` findReferences answers the
 *   links to the note.
 * - Diagnostics, on the link's target text: `broken-link` (error: no note or file matches),
 *   `missing-heading` / `missing-block` (error: the note exists, the `#Heading` or `#^id` does not),
 *   `ambiguous-link` (warning: several notes match; the one chosen and at most 5 named, the rest counted). Source
 *   `md-links`.
 * - A note indexed partly (over the index's limits, see `NOTE_LIMITS`) says so: its outline ends
 *   with a `Null` symbol named `(indexed partly: …)` at the first line not indexed, and diagnostics
 *   answers carry a `note`.
 * - Loops over every note of the vault yield to the event loop every few milliseconds
 *   ({@link TimeSlice}), so a vault of any size never holds the thread long.
 */
import type { Range } from '../types';
import type { DiagnosticItem, DiagnosticProvider, DiagnosticsAnswer, FeatureContext, SymbolItem, SymbolProvider } from '../features/types';
import { matchSymbolName } from '../features/match';
import { MD_LINKS_PROVIDER_ID, MdLinksProvider, anchorRange } from './provider';
import type { IndexedLink, IndexedNote } from './noteCatalog';
import type { VaultIndex } from './vaultIndex';
import { partialText } from './partialText';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import { someNames } from '../pageSummary';

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Why notes have no call hierarchy (the `unsupported` error's text). */
export const NO_CALL_HIERARCHY =
  'markdown notes have no call hierarchy (nothing calls anything); use dsh_lsp findReferences on a note for the links to it';

/**
 * The `md-links` source of symbols and diagnostics. `provider` is read on every call (the
 * extension replaces the provider when its settings change).
 */
export class MdLinksFeatures implements SymbolProvider, DiagnosticProvider {
  readonly id = MD_LINKS_PROVIDER_ID;
  /** One index per workspace folder: workspace symbols and diagnostics are asked once per folder. */
  readonly workspaceScope = 'folder';

  constructor(private readonly provider: () => MdLinksProvider) {}

  /** The note's outline (see the module comment). @throws LspError `outside_workspace`, `file_not_found`, `cancelled`. */
  async documentSymbols(uri: string, _languageId: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const p = this.provider();
    const index = await p.index(ctx.workspaceUri, ctx.signal);
    const note = await p.documentNote(index, uri);
    const outline = await outlineOf(note, ctx.signal);
    const partial = note.parsed.partial;
    if (!partial) return outline;
    const at: Range = { start: { line: partial.indexedLines, character: 0 }, end: { line: partial.indexedLines, character: 0 } };
    return [
      ...outline,
      {
        name: `(indexed partly: ${partialText(note.relPath, note.parsed.lineCount, partial)})`,
        kind: 'Null',
        detail: 'not indexed',
        uri: note.uri,
        range: at,
        selectionRange: at,
      },
    ];
  }

  /** Notes whose file name, title or alias matches `query` (see the module comment). */
  async workspaceSymbols(query: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const index = await this.provider().index(ctx.workspaceUri, ctx.signal);
    await index.settled();
    const out: SymbolItem[] = [];
    const slice = new TimeSlice();
    for (const note of [...index.allNotes()]) {
      await slice.pause(ctx.signal);
      const container = note.dir === '' ? undefined : note.dir;
      // The selection is the start of the range (a line's start), so nothing looks for the name on the line.
      const add = (name: string, detail: string, range: Range) => {
        if (matchSymbolName(query, name) === undefined) return;
        out.push({
          name,
          kind: 'File',
          detail,
          uri: note.uri,
          range,
          selectionRange: { start: range.start, end: range.start },
          ...(container ? { containerName: container } : {}),
        });
      };
      add(note.name, 'file name', ZERO);
      const title = note.parsed.title;
      if (title && title.toLowerCase() !== note.name.toLowerCase()) {
        const h = note.parsed.headings.find((x) => x.level === 1 && x.text === title);
        add(title, 'title', h ? h.range : ZERO);
      }
      for (const a of note.parsed.aliases)
        add(a.text, 'alias', { start: { line: a.line, character: 0 }, end: { line: a.line, character: 0 } });
    }
    return out;
  }

  /** A note's link problems; always `settled` (the index is current once its queued updates applied). */
  async documentDiagnostics(uri: string, _languageId: string, ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    const p = this.provider();
    const index = await p.index(ctx.workspaceUri, ctx.signal);
    await index.settled();
    const note = await p.documentNote(index, uri);
    const partial = note.parsed.partial;
    return {
      diagnostics: await noteDiagnostics(index, note, new TimeSlice(), ctx.signal),
      freshness: 'settled',
      ...(partial ? { note: `indexed partly: ${partialText(note.relPath, note.parsed.lineCount, partial)}` } : {}),
    };
  }

  /** Link problems of every note in the workspace folder. */
  async workspaceDiagnostics(ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    const index = await this.provider().index(ctx.workspaceUri, ctx.signal);
    await index.settled();
    const diagnostics: DiagnosticItem[] = [];
    const partly: string[] = [];
    const slice = new TimeSlice();
    for (const note of [...index.allNotes()]) {
      await slice.pause(ctx.signal);
      for (const d of await noteDiagnostics(index, note, slice, ctx.signal)) diagnostics.push(d);
      if (note.parsed.partial) partly.push(partialText(note.relPath, note.parsed.lineCount, note.parsed.partial));
    }
    return {
      diagnostics,
      freshness: 'settled',
      ...(partly.length > 0
        ? { note: `${partly.length} note(s) indexed partly: ${partly.slice(0, 5).join('; ')}${partly.length > 5 ? '; …' : ''}` }
        : {}),
    };
  }
}

/**
 * A note's outline: headings nested by level with their sections, block anchors inside (each in
 * the innermost section holding its line). Linear in the headings and anchors, yielding every few
 * ms ({@link TimeSlice}): a note at the index's limits has 20 000 of them.
 * @throws LspError `cancelled` when `signal` aborts.
 */
export async function outlineOf(note: IndexedNote, signal?: AbortSignal): Promise<SymbolItem[]> {
  const slice = new TimeSlice();
  const { headings, blocks, lineCount } = note.parsed;
  type Node = { item: SymbolItem; level: number; children: Node[]; endLine: number };
  const lastLine = Math.max(0, lineCount - 1);
  const roots: Node[] = [];
  const stack: Node[] = [];
  const all: Node[] = [];
  for (let i = 0; i < headings.length; i++) {
    await slice.pause(signal);
    const h = headings[i]!;
    // The section ends where the next heading of the same or a higher level starts (exclusive),
    // else at the end of the note (a character past the line's end means its end, LSP rule).
    let sectionEnd = { line: lastLine, character: Number.MAX_SAFE_INTEGER };
    let end = lastLine;
    for (let k = i + 1; k < headings.length; k++) {
      if (headings[k]!.level <= h.level) {
        sectionEnd = { line: headings[k]!.line, character: 0 };
        end = headings[k]!.line - 1;
        break;
      }
    }
    const node: Node = {
      item: {
        name: h.text || '(empty heading)',
        kind: 'String',
        detail: '#'.repeat(h.level),
        uri: note.uri,
        range: { start: h.range.start, end: sectionEnd },
        selectionRange: h.range,
      },
      level: h.level,
      children: [],
      endLine: end,
    };
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(node);
    stack.push(node);
    all.push(node);
  }
  // One sweep in line order: `open` holds the started sections that may still hold the next line,
  // innermost last (sections nest, so their ends never grow towards the top).
  const open: Node[] = [];
  let next = 0;
  const byLine = blocks.every((b, i) => i === 0 || blocks[i - 1]!.line <= b.line) ? blocks : [...blocks].sort((a, b) => a.line - b.line);
  for (const b of byLine) {
    await slice.pause(signal);
    while (next < all.length && all[next]!.item.selectionRange.start.line <= b.line) {
      const started = all[next++]!;
      while (open.length > 0 && open[open.length - 1]!.endLine < started.item.selectionRange.start.line) open.pop();
      open.push(started);
    }
    while (open.length > 0 && open[open.length - 1]!.endLine < b.line) open.pop();
    const anchorAt = b.range.end.character - (b.id.length + 1);
    const item: SymbolItem = {
      name: `^${b.id}`,
      kind: 'Key',
      detail: 'block',
      uri: note.uri,
      range: b.range,
      selectionRange: { start: { line: b.line, character: Math.max(0, anchorAt) }, end: b.range.end },
    };
    // the innermost heading section holding the anchor's line
    const holder = open.at(-1);
    (holder ? holder.children : roots).push({ item, level: 7, children: [], endLine: b.line });
  }
  const byStart = (a: Node, b: Node) =>
    a.item.range.start.line - b.item.range.start.line || a.item.range.start.character - b.item.range.start.character;
  // Sorted and built in slices too: a note of `# h` lines has 20 000 roots.
  const buildAll = async (nodes: Node[]): Promise<SymbolItem[]> => {
    const out: SymbolItem[] = [];
    for (const n of await slicedSort(nodes, byStart, slice, signal)) {
      await slice.pause(signal);
      out.push(n.children.length > 0 ? { ...n.item, children: await buildAll(n.children) } : n.item);
    }
    return out;
  };
  return buildAll(roots);
}

function linkProblem(index: VaultIndex, l: IndexedLink): Omit<DiagnosticItem, 'uri' | 'range'> | undefined {
  const r = index.resolve(l);
  const target = l.link.target;
  if (r.kind === 'unresolved') {
    return { severity: 'error', code: 'broken-link', source: 'md-links', message: `broken wiki link: no note or file matches '${target}'` };
  }
  const anchor = l.link.anchor;
  if (anchor) {
    const { anchorMissing } = anchorRange(index.note(r.file.relPath) ?? r.file, l.link);
    if (anchorMissing) {
      return anchor.kind === 'heading'
        ? { severity: 'error', code: 'missing-heading', source: 'md-links', message: `no heading '${anchor.text}' in ${r.file.relPath}` }
        : { severity: 'error', code: 'missing-block', source: 'md-links', message: `no block '^${anchor.id}' in ${r.file.relPath}` };
    }
  }
  if (r.ambiguous) {
    return {
      severity: 'warning',
      code: 'ambiguous-link',
      source: 'md-links',
      message: `ambiguous wiki link: '${target}' matches ${r.candidates.length} files (${someNames(r.candidates.map((c) => c.relPath))}); it goes to ${r.file.relPath}. Write the folder to choose, e.g. [[${r.candidates[0]!.relKey}]]`,
    };
  }
  return undefined;
}

/**
 * The link problems of one note (its links resolved against the whole index), in link order. A
 * note holds up to 20 000 links, each resolved against every note of its name: the loop yields
 * through `slice` every few ms.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function noteDiagnostics(
  index: VaultIndex,
  note: IndexedNote,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<DiagnosticItem[]> {
  const out: DiagnosticItem[] = [];
  for (const l of note.links) {
    await slice.pause(signal);
    const p = linkProblem(index, l);
    if (p) out.push({ uri: note.uri, range: l.link.targetRange, ...p });
  }
  return out;
}
