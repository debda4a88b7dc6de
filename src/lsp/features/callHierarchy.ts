/**
 * Walking a call hierarchy to a bounded depth (plain Node): from the prepared item, its callers
 * (`incoming`) or callees (`outgoing`), level by level. An item already on the path from the root
 * is a recursion: listed once more with `cycle` and not expanded; an item already expanded
 * elsewhere in the answer is listed with `seenAbove` and not expanded again; past `depth` items
 * are listed with `depthLimit`. At most {@link MAX_CALLS_PER_ITEM} calls are listed per item and
 * `maxNodes` items in all: the calls a source answered beyond either are counted in the item's
 * `moreCalls`; once `maxNodes` is reached, items still to expand are not asked about and are listed
 * with `capLimit` (never as an item without calls).
 */
import { checkInteger } from '../../common/integerInput';
import { throwIfAborted } from '../cancellation';
import { LspError } from '../types';
import type { CallTreeNode } from './shapeCalls';
import type { CallHierarchyProvider, CallItem, FeatureContext } from './types';

/** Default and largest depth of `dsh_call_hierarchy`. */
export const DEFAULT_CALL_DEPTH = 1;
export const MAX_CALL_DEPTH = 5;
/** Most items one answer lists. */
export const MAX_CALL_NODES = 500;
/** Most calls listed under one item (the rest counted in its `moreCalls`). */
export const MAX_CALLS_PER_ITEM = 100;

/** Options of {@link walkCalls}. */
export interface WalkOptions {
  readonly direction: 'incoming' | 'outgoing';
  /** Levels to expand below the root, 1..{@link MAX_CALL_DEPTH}. */
  readonly depth: number;
  readonly maxNodes?: number;
}

/** The result of {@link walkCalls}: the tree, its item count (root included) and whether `maxNodes` cut it. */
export interface WalkedCalls {
  readonly root: CallTreeNode;
  readonly nodes: number;
  /** True when `maxNodes` left calls out (counted in `moreCalls`) or items unexpanded (`capLimit`). */
  readonly truncated: boolean;
  /** The `maxNodes` the walk used. */
  readonly maxNodes: number;
  /** The most calls it listed per item ({@link MAX_CALLS_PER_ITEM}). */
  readonly maxCallsPerItem: number;
}

const keyOf = (i: CallItem) => `${i.uri}#${i.selectionRange.start.line}:${i.selectionRange.start.character}#${i.name}`;

/**
 * Walk from `root` (breadth-first, so a bound cuts the deepest levels first).
 * @throws LspError from the provider (`cancelled`, `unsupported`, …).
 */
export async function walkCalls(
  provider: CallHierarchyProvider,
  root: CallItem,
  options: WalkOptions,
  ctx: FeatureContext,
): Promise<WalkedCalls> {
  checkInteger(options.depth, 'depth', { min: 1, max: MAX_CALL_DEPTH }, (m) => new LspError('invalid_request', m));
  const maxNodes = options.maxNodes ?? MAX_CALL_NODES;
  type Mutable = {
    item: CallItem;
    sites?: CallTreeNode['sites'];
    cycle?: boolean;
    seenAbove?: boolean;
    depthLimit?: boolean;
    capLimit?: boolean;
    moreCalls?: number;
    calls?: Mutable[];
    path: Set<string>;
  };
  const top: Mutable = { item: root, path: new Set([keyOf(root)]) };
  const expanded = new Set<string>([keyOf(root)]);
  let nodes = 1;
  let truncated = false;
  let level: Mutable[] = [top];
  for (let d = 1; d <= options.depth && level.length > 0; d++) {
    const next: Mutable[] = [];
    for (const node of level) {
      throwIfAborted(ctx.signal, 'call hierarchy');
      if (nodes >= maxNodes) {
        // The bound is reached: asking the source would only give calls that cannot be listed.
        node.capLimit = true;
        truncated = true;
        continue;
      }
      const edges = options.direction === 'incoming' ? await provider.incoming(node.item, ctx) : await provider.outgoing(node.item, ctx);
      node.calls = [];
      const room = Math.min(MAX_CALLS_PER_ITEM, maxNodes - nodes);
      if (edges.length > room) {
        node.moreCalls = edges.length - room;
        if (maxNodes - nodes < MAX_CALLS_PER_ITEM) truncated = true;
      }
      for (const e of edges.slice(0, room)) {
        const k = keyOf(e.item);
        const child: Mutable = { item: e.item, sites: { uri: e.rangesUri, ranges: e.ranges }, path: new Set([...node.path, k]) };
        nodes++;
        if (node.path.has(k)) child.cycle = true;
        else if (expanded.has(k)) child.seenAbove = true;
        else if (d === options.depth) child.depthLimit = true;
        else {
          expanded.add(k);
          next.push(child);
        }
        node.calls.push(child);
      }
    }
    level = next;
  }
  const strip = (m: Mutable): CallTreeNode => ({
    item: m.item,
    ...(m.sites ? { sites: m.sites } : {}),
    ...(m.cycle ? { cycle: true } : {}),
    ...(m.seenAbove ? { seenAbove: true } : {}),
    ...(m.depthLimit ? { depthLimit: true } : {}),
    ...(m.capLimit ? { capLimit: true } : {}),
    ...(m.calls ? { calls: m.calls.map(strip) } : {}),
    ...(m.moreCalls ? { moreCalls: m.moreCalls } : {}),
  });
  return { root: strip(top), nodes, truncated, maxNodes, maxCallsPerItem: MAX_CALLS_PER_ITEM };
}
