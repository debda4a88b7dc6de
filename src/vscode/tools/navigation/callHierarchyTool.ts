/**
 * The `dsh_call_hierarchy` Language Model Tool: the callers or callees of the item at a 1-based
 * position, walked to a depth, from the sources registered in a {@link FeatureRegistry}. The model's
 * position is converted once by `resolveModelPosition` (`src/lsp/usedPosition.ts`, shared with
 * `dsh_lsp`).
 */
import * as vscode from 'vscode';
import { DEFAULT_CALL_DEPTH, walkCalls } from '../../../lsp/features/callHierarchy';
import { shapeCallAnswer } from '../../../lsp/features/shapeCalls';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import { splitLines } from '../../../lsp/position';
import { LspError } from '../../../lsp/types';
import { shownHead } from '../../../lsp/lineWindow';
import { resolveModelPosition, UsedPosition } from '../../../lsp/usedPosition';
import type { ToolInput } from '../../../tools/declaration';
import { CALL_HIERARCHY } from '../../../tools/declarations/navigation';
import { readUriText } from '../../navigation/fileAccess';
import { insideJudge } from '../../navigation/insideJudge';
import { callItemsInside, keepCallsInside } from '../../../lsp/features/callsInside';
import { outsideLeftOut } from '../../../lsp/outsideWorkspace';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { TOOL_OUTPUT_CAP_BYTES } from '../toolResult';
import { NavigationTool } from './navigationTool';
import { readLines, resolveInside, roots } from './workspaceAnswers';

/** Input of `dsh_call_hierarchy`. */
export type CallHierarchyInput = ToolInput<typeof CALL_HIERARCHY>;

/** `dsh_call_hierarchy`: callers or callees of the item at a 1-based position. */
export class CallHierarchyTool extends NavigationTool<CallHierarchyInput> {
  static readonly toolName = CALL_HIERARCHY.name;

  protected invocationMessage(i: CallHierarchyInput): string {
    return `${shownHead(i.direction)} calls at ${shownHead(i.filePath)}:${String(i.line)}:${String(i.column)}${i.symbol ? ` (${shownHead(i.symbol)})` : ''}`;
  }

  /**
   * The JSON answer.
   * @throws Error/LspError: file not found, no provider / unsupported (markdown notes), line out
   *   of range, symbol not on the line, a position on whitespace or on nothing callable, not
   *   ready, cancelled.
   */
  protected async answer(input: CallHierarchyInput, signal: AbortSignal): Promise<object> {
    const i = { ...input, depth: input.depth ?? DEFAULT_CALL_DEPTH };
    const target = await resolveInside(i.filePath, CallHierarchyTool.toolName);
    const uri = target.uri.toString();
    const { provider, providerId, languageId } = this.registry.forUri('callHierarchy', uri);
    const lines = splitLines(await readUriText(target.uri, target.realPath));
    const { position, used } = resolveModelPosition(lines, i.line, i.column, i.symbol);
    if (used.token === '') {
      throw new LspError(
        'invalid_request',
        `line ${used.line} column ${used.column} is on whitespace (${JSON.stringify(used.lineText)}): put the column on the name of a function, method or constructor, or pass symbol`,
        {
          line: used.line,
          column: used.column,
        },
      );
    }
    const ctx = { workspaceUri: workspaceUriOf(target), signal };
    const items = await provider.prepare(uri, languageId, position, ctx);
    if (items.length === 0) {
      throw new LspError(
        'invalid_request',
        `no function, method or constructor at line ${used.line} column ${used.column} ('${used.token}'): call hierarchy needs the name of something callable (its declaration or a call of it)`,
        {
          token: used.token,
        },
      );
    }
    // Callers and callees in files outside the workspace are a read of those files: left out, and counted.
    const judge = await insideJudge();
    const inside = await keepCallsInside(
      await walkCalls(provider, items[0]!, { direction: i.direction, depth: i.depth }, ctx),
      judge,
      signal,
    );
    const others = await callItemsInside(items.slice(1), judge);
    const outside = outsideLeftOut(inside.leftOut + others.leftOut, CallHierarchyTool.toolName, !vscode.workspace.isTrusted);
    // The whole answer within the tool result cap: its own fields first, the other prepared items bounded.
    return await shapeCallAnswer(inside.walked, {
      head: {
        file: target.shown,
        provider: providerId,
        direction: i.direction,
        depth: i.depth,
        position: used satisfies UsedPosition,
        ...(outside ? { outsideWorkspace: outside } : {}),
      },
      otherItems: others.kept,
      direction: i.direction,
      depth: i.depth,
      roots: await roots(),
      readLines,
      maxBytes: TOOL_OUTPUT_CAP_BYTES,
      signal,
    });
  }
}
