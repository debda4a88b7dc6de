/**
 * The `dsh_diagnostics` Language Model Tool: the problems of one file (waiting for its analysis)
 * or of the workspace, from the sources registered in a {@link FeatureRegistry}, chosen by file
 * extension like `dsh_lsp`; each answer says how fresh it is.
 */
import * as vscode from 'vscode';
import { abortOnCancel } from '../../cancellation';
import { validateDiagnosticsInput } from '../../../lsp/features/input';
import { shapeDiagnostics } from '../../../lsp/features/present';
import { TimeSlice } from '../../../lsp/timeSlice';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import type { DiagnosticItem, Freshness } from '../../../lsp/features/types';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { toolResult } from '../toolResult';
import { errorMessage } from '../../../common/errorMessage';
import { capped, openFolders, readLines, resolveInside, roots, SourceReport } from './workspaceAnswers';

const FRESHNESS_RANK: Record<Freshness, number> = { settled: 0, unknown: 1, pending: 2 };

/** `dsh_diagnostics`: problems of one file (waiting for analysis) or of the workspace. */
export class DiagnosticsTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_diagnostics';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const f = options.input?.filePath;
    return { invocationMessage: typeof f === 'string' ? `Problems in ${f}` : 'Problems in the workspace' };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /** The JSON answer (also used by the palette command); errors as `SymbolsTool.run` (./symbolsTool.ts). */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateDiagnosticsInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const rootList = await roots();
      const shape = (items: readonly DiagnosticItem[]) =>
        capped(i.limit, (limit) => shapeDiagnostics(items, { roots: rootList, offset: i.offset, limit, readLines, signal, ...(i.severity ? { minSeverity: i.severity } : {}) }));
      if (i.filePath !== undefined) {
        const target = await resolveInside(i.filePath, DiagnosticsTool.toolName);
        const { provider, providerId, languageId } = this.registry.forUri('diagnostics', target.uri.toString());
        const answer = await provider.documentDiagnostics(target.uri.toString(), languageId, { workspaceUri: workspaceUriOf(target), signal });
        const shaped = await shape(answer.diagnostics);
        return { scope: 'file', file: target.shown, provider: providerId, freshness: answer.freshness, ...(answer.note ? { freshnessNote: answer.note } : {}), ...shaped };
      }
      const folders = openFolders('the workspace\'s problems are those of its folders; pass filePath for one file');
      const parts: Array<{ items: DiagnosticItem[] }> = [];
      const sources: Array<SourceReport & { freshness?: Freshness; note?: string }> = [];
      let freshness: Freshness = 'settled';
      // A workspace may hold hundreds of thousands of problems: the sources' lists are gathered in
      // slices (one budget for all of them), and which source serves a file is asked once per file.
      const slice = new TimeSlice();
      await Promise.all(
        this.registry.all('diagnostics').map(async (p) => {
          let count = 0;
          const owned = new Map<string, boolean>();
          try {
            for (const workspaceUri of folders) {
              const answer = await p.workspaceDiagnostics({ workspaceUri, signal });
              // Each answer keeps the place it arrived at while it is filtered.
              const part: { items: DiagnosticItem[] } = { items: [] };
              parts.push(part);
              for (const d of answer.diagnostics) {
                await slice.pause(signal);
                let owns = owned.get(d.uri);
                if (owns === undefined) owned.set(d.uri, (owns = this.registry.owns('diagnostics', p.id, d.uri)));
                if (!owns) continue;
                part.items.push(d);
                count++;
              }
              if (FRESHNESS_RANK[answer.freshness] > FRESHNESS_RANK[freshness]) freshness = answer.freshness;
              sources.push({ id: p.id, count, freshness: answer.freshness, ...(answer.note ? { note: answer.note } : {}) });
            }
          } catch (e) {
            if (signal.aborted) throw e;
            sources.push({ id: p.id, count, error: errorMessage(e) });
          }
        }),
      );
      const items: DiagnosticItem[] = [];
      for (const part of parts) {
        for (const d of part.items) {
          await slice.pause(signal);
          items.push(d);
        }
      }
      sources.sort((a, b) => (a.id < b.id ? -1 : 1));
      const shaped = await shape(items);
      return { scope: 'workspace', freshness, ...shaped, sources };
    } finally {
      dispose();
    }
  }
}
