/**
 * What the model sees of a call hierarchy answer (plain Node), as `dsh_call_hierarchy` shows it:
 * the walked tree with paths placed (`placeUri`), 1-based positions and call-site previews, names
 * and details bounded, the other items the position prepared to, and the whole answer within the
 * tool result cap (first level only, then cut, each bound named in `note`).
 */
import { capList, capNames } from '../pageSummary';
import { textHead } from '../../common/textHead';
import { formatBytes } from '../../common/toolResultCap';
import { placeUri } from '../placeUri';
import { preview } from '../previewLine';
import type { Range } from '../types';
import { TimeSlice } from '../timeSlice';
import { cachedLines, DETAIL_MAX_UNITS, ModelRange, NAME_MAX_UNITS, ReadLines, toModelRange } from './present';
import type { CallItem } from './types';

/** Most names of the other items a position prepared to that an answer lists (`otherItems`). */
export const MAX_OTHER_ITEMS = 10;
/** Most bytes of the JSON of `otherItems` (UTF-8). */
export const MAX_OTHER_ITEMS_BYTES = 4 * 1024;

/** A call hierarchy node as the model sees it. */
export interface ShownCall extends ModelRange {
  /** The item's name, at most {@link NAME_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly name: string;
  readonly kind: string;
  /** At most {@link DETAIL_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly detail?: string;
  /** `name` or `detail` was longer than its bound and is cut (it ends in `…`). */
  readonly cut?: true;
  readonly path: string;
  readonly external?: true;
  readonly nodeModules?: true;
  /** Where the calls are: in the caller (incoming) or in the parent item (outgoing); at most {@link MAX_CALL_SITES}. */
  readonly callSites?: ReadonlyArray<ModelRange & { readonly path: string; readonly preview: string }>;
  /** Call sites the source gave beyond {@link callSites} (not listed). */
  readonly moreCallSites?: number;
  /** Already listed higher up this path (a recursion): not expanded again. */
  readonly cycle?: true;
  /** Already expanded elsewhere in this answer: not expanded again. */
  readonly seenAbove?: true;
  /** Not expanded: the depth bound was reached. */
  readonly depthLimit?: true;
  /** Not expanded: the answer's item bound was reached before it (its calls were not asked for). */
  readonly capLimit?: true;
  readonly calls?: readonly ShownCall[];
  /** Calls the source gave beyond {@link calls} (not listed: the per-item bound, the answer's item bound or the byte cap). */
  readonly moreCalls?: number;
}

/** An item with the edges walked from it (see `./callHierarchy.ts`). */
export interface CallTreeNode {
  readonly item: CallItem;
  readonly sites?: { readonly uri: string; readonly ranges: readonly Range[] };
  readonly cycle?: boolean;
  readonly seenAbove?: boolean;
  readonly depthLimit?: boolean;
  /** Not expanded because the walk's item bound was reached. */
  readonly capLimit?: boolean;
  readonly calls?: readonly CallTreeNode[];
  /** Edges the source answered beyond `calls`, not listed. */
  readonly moreCalls?: number;
}

/** Most call sites listed per call (the rest counted in `moreCallSites`). */
export const MAX_CALL_SITES = 20;

/**
 * Convert a walked call tree for the model (paths placed, positions 1-based; call-site previews
 * from the lines). The walk bounds the items; a caller may call an item at any number of places:
 * the first {@link MAX_CALL_SITES} are shown, the rest counted in `moreCallSites`. Names and
 * details longer than {@link NAME_MAX_UNITS} / {@link DETAIL_MAX_UNITS} are cut (the
 * item flagged `cut`). The conversion
 * yields every few ms, a step per item and per call site.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function shapeCallTree(
  node: CallTreeNode,
  roots: readonly string[],
  readLines: ReadLines,
  signal?: AbortSignal,
): Promise<ShownCall> {
  const lines = cachedLines(readLines);
  const slice = new TimeSlice();
  const show = async (n: CallTreeNode): Promise<ShownCall> => {
    await slice.pause(signal);
    const place = placeUri(roots, n.item.uri);
    const itemLines = await lines(n.item.uri);
    const siteLines = n.sites ? await lines(n.sites.uri) : undefined;
    const sitePath = n.sites ? placeUri(roots, n.sites.uri).path : '';
    let callSites: Array<ModelRange & { path: string; preview: string }> | undefined;
    if (n.sites) {
      callSites = [];
      for (const r of n.sites.ranges.slice(0, MAX_CALL_SITES)) {
        await slice.pause(signal);
        const text = siteLines?.[r.start.line];
        callSites.push({ path: sitePath, ...toModelRange(r, siteLines), preview: text !== undefined ? preview(text) : '' });
      }
    }
    const name = textHead(n.item.name, NAME_MAX_UNITS);
    const detail = n.item.detail ? textHead(n.item.detail, DETAIL_MAX_UNITS) : undefined;
    return {
      name,
      kind: n.item.kind,
      ...(detail ? { detail } : {}),
      ...(name !== n.item.name || (detail !== undefined && detail !== n.item.detail) ? { cut: true as const } : {}),
      path: place.path,
      ...toModelRange(n.item.selectionRange, itemLines),
      ...(place.where === 'external' ? { external: true as const } : {}),
      ...(place.where === 'nodeModules' ? { nodeModules: true as const } : {}),
      ...(callSites ? { callSites } : {}),
      ...(n.sites && n.sites.ranges.length > MAX_CALL_SITES ? { moreCallSites: n.sites.ranges.length - MAX_CALL_SITES } : {}),
      ...(n.cycle ? { cycle: true as const } : {}),
      ...(n.seenAbove ? { seenAbove: true as const } : {}),
      ...(n.depthLimit ? { depthLimit: true as const } : {}),
      ...(n.capLimit ? { capLimit: true as const } : {}),
      ...(n.calls ? { calls: await Promise.all(n.calls.map(show)) } : {}),
      ...(n.moreCalls ? { moreCalls: n.moreCalls } : {}),
    };
  };
  return show(node);
}

/** Options of {@link shapeCallAnswer}. */
export interface CallAnswerOptions {
  readonly direction: 'incoming' | 'outgoing';
  /** The depth the walk was asked for (1..5). */
  readonly depth: number;
  /** Workspace roots (URI strings), as `PresentOptions.roots` (`./present.ts`). */
  readonly roots: readonly string[];
  readonly readLines: ReadLines;
  /**
   * Most bytes of the whole answer's JSON (UTF-8), `head` and `otherItems` included: the tool
   * result cap, named in `note` when the tree was cut to fit it.
   */
  readonly maxBytes: number;
  /** The other items the position prepared to, besides the walked one: their names are listed in `otherItems`, bounded. */
  readonly otherItems?: readonly CallItem[];
  readonly signal?: AbortSignal;
}

/** A call hierarchy answer within its bounds (see {@link shapeCallAnswer}). */
export interface ShapedCallAnswer {
  /** E.g. `"300 direct callers of leaf; 100 listed; 120 items within depth 2"`. */
  readonly summary: string;
  /** Items listed, the root included. */
  readonly nodes: number;
  /** True when a bound left calls out or items unexpanded (see `note`). */
  readonly truncated: boolean;
  /**
   * Names of the other items the position prepared to (not walked), at most
   * {@link MAX_OTHER_ITEMS} names and {@link MAX_OTHER_ITEMS_BYTES} of JSON, each at most
   * {@link NAME_MAX_UNITS} UTF-16 code units (then `…`); absent when there are none.
   */
  readonly otherItems?: readonly string[];
  /** Other items left out of `otherItems` by its bounds. */
  readonly moreOtherItems?: number;
  /** A name in `otherItems` was cut (it ends in `…`). */
  readonly otherItemsCut?: true;
  /** Present when something was left out: which bound, what is counted where, how to see more. */
  readonly note?: string;
  readonly root: ShownCall;
}

/** Whether `test` holds for `node` or any call below it. */
function anyNode(node: ShownCall, test: (n: ShownCall) => boolean): boolean {
  return test(node) || (node.calls ?? []).some((c) => anyNode(c, test));
}

/**
 * The call hierarchy answer the model sees, within `maxBytes` of JSON: `head` (the caller's own
 * fields: file, position, …) first, then the walked tree shaped ({@link shapeCallTree}) and the
 * other prepared items' names (bounded, see {@link ShapedCallAnswer.otherItems}); when it is
 * larger, only the first level (deeper calls dropped, each call flagged `depthLimit`), and when
 * that is still larger, its calls cut to fit, the cut ones counted in the root's `moreCalls`.
 * Every bound that left something out is named in `note`. Only a `head` and root item that alone
 * take more than `maxBytes` make a larger answer.
 * @throws LspError `cancelled` when `signal` aborts.
 */
export async function shapeCallAnswer<H extends object = Record<never, never>>(
  walked: { root: CallTreeNode; nodes: number; truncated: boolean; maxNodes: number; maxCallsPerItem: number },
  options: CallAnswerOptions & { readonly head?: H },
): Promise<H & ShapedCallAnswer> {
  let root = await shapeCallTree(walked.root, options.roots, options.readLines, options.signal);
  const notes: string[] = [];
  let nodes = walked.nodes;
  let truncated = walked.truncated;
  const otherNames = (options.otherItems ?? []).slice(0, MAX_OTHER_ITEMS).map((x) => x.name);
  const others = capNames(otherNames, MAX_OTHER_ITEMS, NAME_MAX_UNITS, MAX_OTHER_ITEMS_BYTES);
  const otherCount = options.otherItems?.length ?? 0;
  const moreOthers = otherCount - others.listed.length;
  const otherFields =
    otherCount > 0
      ? {
          otherItems: others.listed,
          ...(moreOthers > 0 ? { moreOtherItems: moreOthers } : {}),
          ...(others.cut ? { otherItemsCut: true as const } : {}),
        }
      : {};
  if (moreOthers > 0)
    notes.push(
      `the position is also on ${otherCount} other items: otherItems lists ${others.listed.length} of ${otherCount} (${moreOthers} more counted in moreOtherItems)`,
    );
  if (others.cut) notes.push(`names in otherItems longer than ${NAME_MAX_UNITS} UTF-16 code units are cut, ending in …`);
  if (anyNode(root, (n) => !!n.cut))
    notes.push(
      `items with cut: true have a name longer than ${NAME_MAX_UNITS} or a detail longer than ${DETAIL_MAX_UNITS} UTF-16 code units, cut and ending in …`,
    );
  const build = (): H & ShapedCallAnswer => {
    const direct = (root.calls?.length ?? 0) + (root.moreCalls ?? 0);
    const listed = root.calls?.length ?? 0;
    const what = options.direction === 'incoming' ? (direct === 1 ? 'caller' : 'callers') : direct === 1 ? 'callee' : 'callees';
    const summary = `${direct} direct ${what} of ${root.name}${listed < direct ? `; ${listed} listed` : ''}; ${nodes - 1} item${nodes === 2 ? '' : 's'} within depth ${options.depth}${walked.truncated ? ` (truncated at ${walked.maxNodes} items)` : ''}`;
    return {
      ...(options.head as H),
      summary,
      nodes,
      truncated,
      ...otherFields,
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
      root,
    };
  };
  if (anyNode(root, (n) => !!n.moreCalls))
    notes.push(
      `calls beyond ${walked.truncated ? `the answer's bound of ${walked.maxNodes} items or ` : ''}${walked.maxCallsPerItem} per item are counted in moreCalls, not listed: ask again from one of the listed items, or with a smaller depth`,
    );
  if (walked.truncated) notes.push(`items past the bound of ${walked.maxNodes} items are flagged capLimit: their calls were not asked for`);
  if (anyNode(root, (n) => !!n.moreCallSites))
    notes.push(
      `at most ${MAX_CALL_SITES} call sites are listed per call, the rest counted in moreCallSites: dsh_lsp findReferences lists every one`,
    );
  let answer = build();
  if (Buffer.byteLength(JSON.stringify(answer)) <= options.maxBytes) return answer;
  const cap = formatBytes(options.maxBytes);
  const calls = (root.calls ?? []).map((c) => ({
    ...c,
    calls: undefined,
    moreCalls: undefined,
    ...(c.calls !== undefined || c.capLimit ? { depthLimit: true as const, capLimit: undefined } : {}),
  }));
  root = { ...root, calls };
  nodes = 1 + calls.length;
  truncated = true;
  notes.push(`the answer was larger than the ${cap} tool result cap: only the first level is shown; ask again from a caller or callee`);
  answer = build();
  if (Buffer.byteLength(JSON.stringify(answer)) <= options.maxBytes) return answer;
  // Still too large: as many first-level calls as fit, the rest counted.
  const overhead = Buffer.byteLength(JSON.stringify({ ...answer, root: { ...root, calls: [], moreCalls: calls.length } })) + 200;
  const fit = capList(calls, calls.length, Math.max(0, options.maxBytes - overhead));
  root = { ...root, calls: fit.listed, moreCalls: (root.moreCalls ?? 0) + fit.more };
  nodes = 1 + fit.listed.length;
  notes[notes.length - 1] =
    `the answer was larger than the ${cap} tool result cap: only the first level is shown, and of it the first ${fit.listed.length} calls (${fit.more} more counted in moreCalls); ask again from a caller or callee`;
  return build();
}
