/**
 * Passes over a workspace-symbol answer before it is shaped (plain Node, no `vscode` import): a
 * search merges every provider's symbols, and some answer tens or hundreds of thousands (an empty
 * or one-letter query on a big repository), so each pass yields through a {@link TimeSlice} every
 * few ms instead of holding the thread for the whole list.
 */
import { sourceText } from '../sourceErrors';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import { isLspError, LspError } from '../types';
import { matchSymbolName } from './match';
import type { FeatureRegistry } from './registry';
import type { SymbolItem, SymbolKindName } from './types';
import { foldersToAsk, joinParts, ownedFiles } from './workspaceSources';

/**
 * The symbols with TypeScript's label of functions, methods and constructors (`name()`) turned
 * into the name (`name`); other symbols are the given objects, in the given order.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function withoutCallParens(
  items: readonly SymbolItem[],
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<SymbolItem[]> {
  const out: SymbolItem[] = [];
  for (const s of items) {
    await slice.pause(signal);
    out.push(/^(Function|Method|Constructor)$/.test(s.kind) && s.name.endsWith('()') ? { ...s, name: s.name.slice(0, -2) } : s);
  }
  return out;
}

/** A symbol as text for {@link sameSymbols}: its URI, where its name starts, its name. */
const symbolKey = (s: SymbolItem) => `${s.uri}#${s.selectionRange.start.line}:${s.selectionRange.start.character}:${s.name}`;

/**
 * True when two answers hold the same symbols in any order (each symbol told by its URI, where its
 * name starts and its name, counted with repeats): two answers in a row that agree are final.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function sameSymbols(
  a: readonly SymbolItem[],
  b: readonly SymbolItem[],
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<boolean> {
  if (a.length !== b.length) return false;
  const sortedKeys = async (items: readonly SymbolItem[]) => {
    const keys: string[] = [];
    for (const s of items) {
      await slice.pause(signal);
      keys.push(symbolKey(s));
    }
    return slicedSort(keys, (x, y) => (x < y ? -1 : x > y ? 1 : 0), slice, signal);
  };
  const ka = await sortedKeys(a);
  const kb = await sortedKeys(b);
  for (let i = 0; i < ka.length; i++) {
    await slice.pause(signal);
    if (ka[i] !== kb[i]) return false;
  }
  return true;
}

/**
 * The symbols `accept` keeps whose names match `query` ({@link matchSymbolName}), each with its
 * score, in the given order.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function scoreSymbols(
  query: string,
  items: readonly SymbolItem[],
  accept: (s: SymbolItem) => boolean,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<Array<{ symbol: SymbolItem; score: number }>> {
  const out: Array<{ symbol: SymbolItem; score: number }> = [];
  for (const s of items) {
    await slice.pause(signal);
    if (!accept(s)) continue;
    const score = matchSymbolName(query, s.name);
    if (score !== undefined) out.push({ symbol: s, score });
  }
  return out;
}

/** What one source contributed to a workspace symbol search (its error, if it failed). */
export interface SymbolsSourceReport {
  readonly id: string;
  readonly count: number;
  readonly error?: string;
}

/** The symbols every source found, scored, in the order the answers arrived, and a report per source (by id). */
export interface GatheredSymbols {
  readonly scored: Array<{ symbol: SymbolItem; score: number }>;
  readonly sources: SymbolsSourceReport[];
}

/**
 * Ask every symbol source of `registry` for the symbols matching `query` (of `kinds`, when given):
 * once for the workspace when it searches the whole workspace (`workspaceScope: 'workspace'`),
 * else once per folder; each answer's symbols kept in files that source serves (see
 * `FeatureRegistry.owns`).
 * @param folders the workspace folders (URI strings), at least one.
 * @throws LspError `cancelled` when `signal` aborts; a source's `not_ready` error when nothing
 *   was found while that source was still loading (other errors go in the source's report).
 */
export async function gatherWorkspaceSymbols(
  registry: FeatureRegistry,
  query: string,
  kinds: readonly SymbolKindName[] | undefined,
  folders: readonly string[],
  signal: AbortSignal,
): Promise<GatheredSymbols> {
  const sources: SymbolsSourceReport[] = [];
  const notReady: LspError[] = [];
  const parts: Array<{ items: Array<{ symbol: SymbolItem; score: number }> }> = [];
  // A search may answer hundreds of thousands of symbols: scored in slices (one budget for
  // every source), and which source serves a file is asked once per file.
  const slice = new TimeSlice();
  await Promise.all(
    registry.all('symbols').map(async (p) => {
      let count = 0;
      const owns = ownedFiles(registry, 'symbols', p.id);
      const accept = (s: SymbolItem) => (!kinds || kinds.includes(s.kind)) && owns(s.uri);
      try {
        for (const workspaceUri of foldersToAsk(p.workspaceScope, folders)) {
          const answer = await p.workspaceSymbols(query, { workspaceUri, signal });
          // Each answer keeps the place it arrived at while it is scored.
          const part: { items: Array<{ symbol: SymbolItem; score: number }> } = { items: [] };
          parts.push(part);
          part.items = await scoreSymbols(query, answer, accept, slice, signal);
          count += part.items.length;
        }
        sources.push({ id: p.id, count });
      } catch (e) {
        if (signal.aborted) throw e;
        if (isLspError(e) && e.details.reason === 'not_ready') notReady.push(e);
        sources.push({ id: p.id, count, error: sourceText(e) });
      }
    }),
  );
  const scored = await joinParts(parts, slice, signal);
  // Nothing found while a language was still loading is not "no results".
  if (scored.length === 0 && notReady[0]) throw notReady[0];
  sources.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { scored, sources };
}
