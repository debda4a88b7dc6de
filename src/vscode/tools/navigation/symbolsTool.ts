/**
 * The `dsh_symbols` Language Model Tool: workspace symbols by name, or a file's outline, answered
 * by the sources registered in a {@link FeatureRegistry} (VS Code's language features, `md-links`,
 * configured stdio servers), chosen by file extension like `dsh_lsp`. Answers are shaped by
 * `src/lsp/features/present.ts`; input rules live in `src/lsp/features/input.ts` (kept in
 * agreement with package.json by a test).
 */
import * as vscode from 'vscode';
import { abortOnCancel } from '../../cancellation';
import { validateSymbolsInput } from '../../../lsp/features/input';
import { keepKinds, shapeOutline, shapeWorkspaceSymbols } from '../../../lsp/features/present';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import { gatherWorkspaceSymbols } from '../../../lsp/features/workspaceSymbols';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { insideJudge } from '../../navigation/insideJudge';
import { keepInside, outsideLeftOut } from '../../../lsp/outsideWorkspace';
import { toolResult } from '../toolResult';
import { capped, openFolders, readLines, resolveInside, roots } from './workspaceAnswers';

/** `dsh_symbols`: workspace symbols by `query`, or the outline of `filePath`. */
export class SymbolsTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_symbols';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const i = options.input ?? {};
    return { invocationMessage: typeof i.filePath === 'string' ? `Outline of ${i.filePath}` : `Symbols matching ${JSON.stringify(i.query)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /**
   * The JSON answer (also used by the palette command).
   * @throws Error/LspError with a message the model can act on: invalid input, file not found, no
   *   provider for the file type, unsupported by the serving source, not ready, cancelled.
   */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateSymbolsInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const rootList = await roots();
      if (i.filePath !== undefined) {
        const target = await resolveInside(i.filePath, SymbolsTool.toolName);
        const { provider, providerId, languageId } = this.registry.forUri('symbols', target.uri.toString());
        const tree = await keepKinds(await provider.documentSymbols(target.uri.toString(), languageId, { workspaceUri: workspaceUriOf(target), signal }), i.kinds, undefined, signal);
        // The whole answer is measured against the cap, not only the page.
        return await capped(i.limit, async (limit) => ({ mode: 'outline', file: target.shown, provider: providerId, ...(await shapeOutline(tree, { roots: rootList, offset: i.offset, limit, readLines, signal })) }));
      }
      const query = i.query!;
      const folders = openFolders('workspace symbols search the workspace folders; pass filePath for one file\'s outline');
      const gathered = await gatherWorkspaceSymbols(this.registry, query, i.kinds, folders, signal);
      const { sources } = gathered;
      // Names from files outside the workspace are a read of those files: left out, and counted.
      const { kept: scored, leftOut } = await keepInside(gathered.scored, (s) => s.symbol.uri, await insideJudge(), signal);
      const outside = outsideLeftOut(leftOut, SymbolsTool.toolName, !vscode.workspace.isTrusted);
      const notes = sources.filter((s) => s.error).map((s) => `source '${s.id}' did not answer: ${s.error}`);
      return await capped(i.limit, async (limit) => ({
        mode: 'workspace',
        query,
        ...(await shapeWorkspaceSymbols(scored, { roots: rootList, offset: i.offset, limit, readLines, signal })),
        ...(outside ? { outsideWorkspace: outside } : {}),
        sources,
        ...(notes.length > 0 ? { notes } : {}),
      }));
    } finally {
      dispose();
    }
  }
}
