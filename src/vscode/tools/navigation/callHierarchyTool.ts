/**
 * The `dsh_call_hierarchy` Language Model Tool: the callers or callees of the item at a 1-based
 * position, walked to a depth, from the sources registered in a {@link FeatureRegistry}. The model's
 * position is converted once by `resolveModelPosition` (`src/lsp/usedPosition.ts`, shared with
 * `dsh_lsp`).
 */
import * as vscode from 'vscode';
import { abortOnCancel } from '../../cancellation';
import { walkCalls } from '../../../lsp/features/callHierarchy';
import { validateCallHierarchyInput } from '../../../lsp/features/input';
import { shapeCallAnswer } from '../../../lsp/features/present';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import { splitLines } from '../../../lsp/position';
import { LspError } from '../../../lsp/types';
import { shownHead } from '../../../lsp/lineWindow';
import { resolveModelPosition, UsedPosition } from '../../../lsp/usedPosition';
import { readUriText } from '../../navigation/fileAccess';
import { insideJudge } from '../../navigation/insideJudge';
import { callItemsInside, keepCallsInside } from '../../../lsp/features/callsInside';
import { outsideLeftOut } from '../../../lsp/outsideWorkspace';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { TOOL_OUTPUT_CAP_BYTES, toolResult } from '../toolResult';
import { readLines, resolveInside, roots } from './workspaceAnswers';

/** `dsh_call_hierarchy`: callers or callees of the item at a 1-based position. */
export class CallHierarchyTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_call_hierarchy';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const i = options.input ?? {};
    return { invocationMessage: `${shownHead(i.direction)} calls at ${shownHead(i.filePath)}:${String(i.line)}:${String(i.column)}${i.symbol ? ` (${shownHead(i.symbol)})` : ''}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /**
   * The JSON answer (also used by the palette command).
   * @throws Error/LspError: invalid input, file not found, no provider / unsupported (markdown
   *   notes), line out of range, symbol not on the line, a position on whitespace or on nothing
   *   callable, not ready, cancelled.
   */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateCallHierarchyInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const target = await resolveInside(i.filePath, CallHierarchyTool.toolName);
      const uri = target.uri.toString();
      const { provider, providerId, languageId } = this.registry.forUri('callHierarchy', uri);
      const lines = splitLines(await readUriText(target.uri, target.realPath));
      const { position, used } = resolveModelPosition(lines, i.line, i.column, i.symbol);
      if (used.token === '') {
        throw new LspError('invalid_request', `line ${used.line} column ${used.column} is on whitespace (${JSON.stringify(used.lineText)}): put the column on the name of a function, method or constructor, or pass symbol`, {
          line: used.line,
          column: used.column,
        });
      }
      const ctx = { workspaceUri: workspaceUriOf(target), signal };
      const items = await provider.prepare(uri, languageId, position, ctx);
      if (items.length === 0) {
        throw new LspError('invalid_request', `no function, method or constructor at line ${used.line} column ${used.column} ('${used.token}'): call hierarchy needs the name of something callable (its declaration or a call of it)`, {
          token: used.token,
        });
      }
      // Callers and callees in files outside the workspace are a read of those files: left out, and counted.
      const judge = await insideJudge();
      const inside = await keepCallsInside(await walkCalls(provider, items[0]!, { direction: i.direction, depth: i.depth }, ctx), judge, signal);
      const others = await callItemsInside(items.slice(1), judge);
      const outside = outsideLeftOut(inside.leftOut + others.leftOut, CallHierarchyTool.toolName, !vscode.workspace.isTrusted);
      // The whole answer within the tool result cap: its own fields first, the other prepared items bounded.
      return await shapeCallAnswer(inside.walked, {
        head: { file: target.shown, provider: providerId, direction: i.direction, depth: i.depth, position: used satisfies UsedPosition, ...(outside ? { outsideWorkspace: outside } : {}) },
        otherItems: others.kept,
        direction: i.direction,
        depth: i.depth,
        roots: await roots(),
        readLines,
        maxBytes: TOOL_OUTPUT_CAP_BYTES,
        signal,
      });
    } finally {
      dispose();
    }
  }
}
