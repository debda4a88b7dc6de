/**
 * The `dsh_diagnostics` Language Model Tool: the problems of one file (waiting for its analysis)
 * or of the workspace, from the sources registered in a {@link FeatureRegistry}, chosen by file
 * extension like `dsh_lsp`; each answer says how fresh it is.
 */
import * as vscode from 'vscode';
import { shapeDiagnostics } from '../../../lsp/features/shapeDiagnostics';
import { sourceText } from '../../../lsp/sourceErrors';
import type { FeatureRegistry } from '../../../lsp/features/registry';
import type { DiagnosticItem } from '../../../lsp/features/types';
import { gatherWorkspaceDiagnostics } from '../../../lsp/features/workspaceDiagnostics';
import { DEFAULT_LIMIT } from '../../../lsp/shapeLocations';
import type { ToolInput } from '../../../tools/declaration';
import { DIAGNOSTICS } from '../../../tools/declarations/navigation';
import { workspaceUriOf } from '../../navigation/resolveFile';
import { insideJudge } from '../../navigation/insideJudge';
import { keepInside, outsideLeftOut } from '../../../lsp/outsideWorkspace';
import { NavigationTool } from './navigationTool';
import { capped, openFolders, readLines, resolveInside, roots } from './workspaceAnswers';

/** Input of `dsh_diagnostics`. */
export type DiagnosticsInput = ToolInput<typeof DIAGNOSTICS>;

/** `dsh_diagnostics`: problems of one file (waiting for analysis) or of the workspace. */
export class DiagnosticsTool extends NavigationTool<DiagnosticsInput> {
  static readonly toolName = DIAGNOSTICS.name;

  protected invocationMessage(i: DiagnosticsInput): string {
    return i.filePath !== undefined ? `Problems in ${i.filePath}` : 'Problems in the workspace';
  }

  protected async answer(i: DiagnosticsInput, signal: AbortSignal): Promise<object> {
    const rootList = await roots();
    // The whole answer (its own fields included) is measured against the cap, not only the page.
    // Problems of files outside the workspace name those files and their text: left out, and counted.
    const judge = await insideJudge();
    const shape = async <H extends object>(all: readonly DiagnosticItem[], head: H, tail: object = {}) => {
      const { kept: items, leftOut } = await keepInside(all, (d) => d.uri, judge, signal);
      const outside = outsideLeftOut(leftOut, DiagnosticsTool.toolName, !vscode.workspace.isTrusted);
      return capped(i.limit ?? DEFAULT_LIMIT, async (limit) => ({
        ...head,
        ...(await shapeDiagnostics(items, {
          roots: rootList,
          offset: i.offset ?? 0,
          limit,
          readLines,
          signal,
          ...(i.severity ? { minSeverity: i.severity } : {}),
        })),
        ...(outside ? { outsideWorkspace: outside } : {}),
        ...tail,
      }));
    };
    if (i.filePath !== undefined) {
      const target = await resolveInside(i.filePath, DiagnosticsTool.toolName);
      const { provider, providerId, languageId } = this.registry.forUri('diagnostics', target.uri.toString());
      const answer = await provider.documentDiagnostics(target.uri.toString(), languageId, {
        workspaceUri: workspaceUriOf(target),
        signal,
      });
      return await shape(answer.diagnostics, {
        scope: 'file',
        file: target.shown,
        provider: providerId,
        freshness: answer.freshness,
        ...(answer.note ? { freshnessNote: sourceText(answer.note) } : {}),
      });
    }
    const folders = openFolders("the workspace's problems are those of its folders; pass filePath for one file");
    const { items, freshness, sources } = await gatherWorkspaceDiagnostics(this.registry, folders, signal);
    return await shape(items, { scope: 'workspace', freshness }, { sources });
  }
}
