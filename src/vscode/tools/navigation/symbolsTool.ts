/**
 * The `dsh_symbols` Language Model Tool: workspace symbols by name, or a file's outline, answered
 * by the sources registered in a {@link FeatureRegistry} (VS Code's language features, `md-links`,
 * configured stdio servers), chosen by file extension like `dsh_lsp`. Answers are shaped by
 * `src/lsp/features/shapeSymbols.ts`; the input is as src/tools/declarations/navigation.ts declares it.
 */
import * as vscode from 'vscode';
import { keepKinds, shapeOutline, shapeWorkspaceSymbols } from '../../../lsp/features/shapeSymbols';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import { gatherWorkspaceSymbols } from '../../../lsp/features/workspaceSymbols';
import { DEFAULT_LIMIT } from '../../../lsp/shapeLocations';
import type { ToolInput } from '../../../tools/declaration';
import { SYMBOLS } from '../../../tools/declarations/navigation';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { insideJudge } from '../../navigation/insideJudge';
import { keepInside, outsideLeftOut } from '../../../lsp/outsideWorkspace';
import { NavigationTool } from './navigationTool';
import { capped, openFolders, readLines, resolveInside, roots } from './workspaceAnswers';

/** Input of `dsh_symbols`: exactly one of `query` and `filePath`. */
export type SymbolsInput = ToolInput<typeof SYMBOLS>;

/** `dsh_symbols`: workspace symbols by `query`, or the outline of `filePath`. */
export class SymbolsTool extends NavigationTool<SymbolsInput> {
  static readonly toolName = SYMBOLS.name;

  protected invocationMessage(i: SymbolsInput): string {
    return i.filePath !== undefined ? `Outline of ${i.filePath}` : `Symbols matching ${JSON.stringify(i.query)}`;
  }

  protected async answer(i: SymbolsInput, signal: AbortSignal): Promise<object> {
    const offset = i.offset ?? 0;
    const rootList = await roots();
    if (i.filePath !== undefined) {
      const target = await resolveInside(i.filePath, SymbolsTool.toolName);
      const { provider, providerId, languageId } = this.registry.forUri('symbols', target.uri.toString());
      const tree = await keepKinds(
        await provider.documentSymbols(target.uri.toString(), languageId, { workspaceUri: workspaceUriOf(target), signal }),
        i.kinds,
        undefined,
        signal,
      );
      // The whole answer is measured against the cap, not only the page.
      return await capped(i.limit ?? DEFAULT_LIMIT, async (limit) => ({
        mode: 'outline',
        file: target.shown,
        provider: providerId,
        ...(await shapeOutline(tree, { roots: rootList, offset, limit, readLines, signal })),
      }));
    }
    // The declaration's rules let only query through without filePath.
    const query = i.query!.trim();
    const folders = openFolders("workspace symbols search the workspace folders; pass filePath for one file's outline");
    const gathered = await gatherWorkspaceSymbols(this.registry, query, i.kinds, folders, signal);
    const { sources } = gathered;
    // Names from files outside the workspace are a read of those files: left out, and counted.
    const { kept: scored, leftOut } = await keepInside(gathered.scored, (s) => s.symbol.uri, await insideJudge(), signal);
    const outside = outsideLeftOut(leftOut, SymbolsTool.toolName, !vscode.workspace.isTrusted);
    const notes = sources.filter((s) => s.error).map((s) => `source '${s.id}' did not answer: ${s.error}`);
    return await capped(i.limit ?? DEFAULT_LIMIT, async (limit) => ({
      mode: 'workspace',
      query,
      ...(await shapeWorkspaceSymbols(scored, { roots: rootList, offset, limit, readLines, signal })),
      ...(outside ? { outsideWorkspace: outside } : {}),
      sources,
      ...(notes.length > 0 ? { notes } : {}),
    }));
  }
}
