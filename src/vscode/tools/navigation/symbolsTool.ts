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
import type { SymbolItem } from '../../../lsp/features/types';
import { scoreSymbols } from '../../../lsp/features/workspaceSymbols';
import { TimeSlice } from '../../../lsp/timeSlice';
import { isLspError, LspError } from '../../../lsp/types';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { toolResult } from '../toolResult';
import { errorMessage } from '../../../common/errorMessage';
import { capped, openFolders, readLines, resolveInside, roots, SourceReport } from './workspaceAnswers';

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
        const shaped = await capped(i.limit, (limit) => shapeOutline(tree, { roots: rootList, offset: i.offset, limit, readLines, signal }));
        return { mode: 'outline', file: target.shown, provider: providerId, ...shaped };
      }
      const query = i.query!;
      const folders = openFolders('workspace symbols search the workspace folders; pass filePath for one file\'s outline');
      const sources: SourceReport[] = [];
      const notReady: LspError[] = [];
      const parts: Array<{ scored: Array<{ symbol: SymbolItem; score: number }> }> = [];
      // A search may answer hundreds of thousands of symbols: scored in slices (one budget for
      // every source), and which source serves a file is asked once per file.
      const slice = new TimeSlice();
      await Promise.all(
        this.registry.all('symbols').map(async (p) => {
          let count = 0;
          const owned = new Map<string, boolean>();
          const accept = (s: SymbolItem) => {
            if (i.kinds && !i.kinds.includes(s.kind)) return false;
            let owns = owned.get(s.uri);
            if (owns === undefined) owned.set(s.uri, (owns = this.registry.owns('symbols', p.id, s.uri)));
            return owns;
          };
          try {
            for (const workspaceUri of folders) {
              const answer = await p.workspaceSymbols(query, { workspaceUri, signal });
              // Each answer keeps the place it arrived at while it is scored.
              const part: { scored: Array<{ symbol: SymbolItem; score: number }> } = { scored: [] };
              parts.push(part);
              part.scored = await scoreSymbols(query, answer, accept, slice, signal);
              count += part.scored.length;
            }
            sources.push({ id: p.id, count });
          } catch (e) {
            if (signal.aborted) throw e;
            if (isLspError(e) && e.details.reason === 'not_ready') notReady.push(e);
            sources.push({ id: p.id, count, error: errorMessage(e) });
          }
        }),
      );
      const scored: Array<{ symbol: SymbolItem; score: number }> = [];
      for (const part of parts) {
        for (const x of part.scored) {
          await slice.pause(signal);
          scored.push(x);
        }
      }
      // Nothing found while a language was still loading is not "no results".
      if (scored.length === 0 && notReady[0]) throw notReady[0];
      sources.sort((a, b) => (a.id < b.id ? -1 : 1));
      const shaped = await capped(i.limit, (limit) => shapeWorkspaceSymbols(scored, { roots: rootList, offset: i.offset, limit, readLines, signal }));
      const notes = sources.filter((s) => s.error).map((s) => `source '${s.id}' did not answer: ${s.error}`);
      return { mode: 'workspace', query, ...shaped, sources, ...(notes.length > 0 ? { notes } : {}) };
    } finally {
      dispose();
    }
  }
}
