/**
 * A walked call tree with the calls outside the workspace left out (plain Node, no `vscode`
 * import): the reading rule of `../outsideWorkspace.ts` applied to call hierarchy answers.
 */
import type { InsideJudge } from '../outsideWorkspace';
import { TimeSlice } from '../timeSlice';
import type { WalkedCalls } from './callHierarchy';
import type { CallTreeNode } from './shapeCalls';
import type { CallItem } from './types';

/** {@link keepCallsInside}'s answer: the tree without outside calls, its item count, and how many calls were left out. */
export interface CallsInside {
  readonly walked: WalkedCalls;
  /** Calls left out because their item or their call sites lie outside the workspace (the items below them are not counted). */
  readonly leftOut: number;
}

/**
 * `walked` without every call whose item's document, or whose call sites' document, lies outside
 * the workspace by `judge`; the calls below such a call go with it. The root stays (the caller
 * resolved it inside the workspace). `nodes` is recounted.
 * @throws LspError `cancelled` when `signal` aborts.
 */
export async function keepCallsInside(walked: WalkedCalls, judge: InsideJudge, signal?: AbortSignal): Promise<CallsInside> {
  const slice = new TimeSlice();
  let leftOut = 0;
  let nodes = 0;
  const keep = async (node: CallTreeNode): Promise<CallTreeNode> => {
    nodes++;
    if (!node.calls) return node;
    const calls: CallTreeNode[] = [];
    for (const call of node.calls) {
      await slice.pause(signal);
      if ((await judge(call.item.uri)) && (!call.sites || (await judge(call.sites.uri)))) calls.push(await keep(call));
      else leftOut++;
    }
    return { ...node, calls };
  };
  const root = await keep(walked.root);
  return { walked: { ...walked, root, nodes }, leftOut };
}

/** The items of `items` inside the workspace by `judge`, and how many were left out. */
export async function callItemsInside(items: readonly CallItem[], judge: InsideJudge): Promise<{ kept: CallItem[]; leftOut: number }> {
  const kept: CallItem[] = [];
  for (const item of items) if (await judge(item.uri)) kept.push(item);
  return { kept, leftOut: items.length - kept.length };
}
