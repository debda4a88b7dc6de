/**
 * Passes over a workspace-symbol answer before it is shaped (plain Node, no `vscode` import): a
 * search merges every provider's symbols, and some answer tens or hundreds of thousands (an empty
 * or one-letter query on a big repository), so each pass yields through a {@link TimeSlice} every
 * few ms instead of holding the thread for the whole list.
 */
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import { matchSymbolName } from './match';
import type { SymbolItem } from './types';

/**
 * The symbols with TypeScript's label of functions, methods and constructors (`name()`) turned
 * into the name (`name`); other symbols are the given objects, in the given order.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function withoutCallParens(items: readonly SymbolItem[], slice = new TimeSlice(), signal?: AbortSignal): Promise<SymbolItem[]> {
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
export async function sameSymbols(a: readonly SymbolItem[], b: readonly SymbolItem[], slice = new TimeSlice(), signal?: AbortSignal): Promise<boolean> {
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
export async function scoreSymbols(query: string, items: readonly SymbolItem[], accept: (s: SymbolItem) => boolean, slice = new TimeSlice(), signal?: AbortSignal): Promise<Array<{ symbol: SymbolItem; score: number }>> {
  const out: Array<{ symbol: SymbolItem; score: number }> = [];
  for (const s of items) {
    await slice.pause(signal);
    if (!accept(s)) continue;
    const score = matchSymbolName(query, s.name);
    if (score !== undefined) out.push({ symbol: s, score });
  }
  return out;
}
