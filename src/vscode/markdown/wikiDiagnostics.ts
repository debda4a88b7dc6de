/**
 * Wiki-link problems of markdown notes in VS Code's Problems panel: the `md-links` diagnostics
 * (broken, ambiguous, missing heading or block) published through a `vscode.DiagnosticCollection`
 * named `md-links`, for every workspace folder that holds notes, refreshed (debounced) whenever the
 * index changes. The same diagnostics answer `dsh_diagnostics` for notes, from the index directly.
 */
import * as vscode from 'vscode';
import { SEVERITIES } from '../../lsp/features/types';
import type { DiagnosticItem, DiagnosticProvider } from '../../lsp/features/types';
import { errorMessage } from '../../common/errorMessage';

const SEVERITY: Record<(typeof SEVERITIES)[number], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** The publisher: call `refresh()` after the index changed; `dispose()` clears the panel. */
export interface WikiDiagnostics extends vscode.Disposable {
  /** Recompute after `delayMs` (default 300), coalescing calls in between. */
  refresh(delayMs?: number): void;
  /** Resolves when the refresh scheduled or running now is done (for tests). */
  idle(): Promise<void>;
}

/**
 * Publish `source`'s workspace diagnostics for each workspace folder that contains a `.md` or
 * `.markdown` file (looked up once at start; folders without notes cost nothing).
 */
export function registerWikiDiagnostics(source: DiagnosticProvider, log: vscode.LogOutputChannel): WikiDiagnostics {
  const collection = vscode.languages.createDiagnosticCollection('md-links');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let hasNotes: Promise<boolean> | undefined;
  let disposed = false;

  const publish = async () => {
    hasNotes ??= Promise.resolve(vscode.workspace.findFiles('**/*.{md,markdown}', '**/node_modules/**', 1)).then((f) => f.length > 0, () => false);
    if (!(await hasNotes) || disposed) return;
    const byUri = new Map<string, vscode.Diagnostic[]>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      try {
        const answer = await source.workspaceDiagnostics({ workspaceUri: folder.uri.toString(), signal: new AbortController().signal });
        for (const d of answer.diagnostics) {
          const list = byUri.get(d.uri) ?? [];
          list.push(toVsDiagnostic(d));
          byUri.set(d.uri, list);
        }
      } catch (e) {
        log.warn(`md-links diagnostics for ${folder.uri.toString()} failed: ${errorMessage(e)}`);
      }
    }
    if (disposed) return;
    collection.clear();
    collection.set([...byUri.entries()].map(([uri, list]) => [vscode.Uri.parse(uri), list] as [vscode.Uri, vscode.Diagnostic[]]));
  };

  const refresh = (delayMs = 300) => {
    if (disposed) return;
    hasNotes = undefined; // a note may have been created since the last look
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(publish, publish);
    }, delayMs);
  };
  refresh(0);
  return {
    refresh,
    idle: async () => {
      while (timer) await new Promise((r) => setTimeout(r, 50));
      await running;
    },
    dispose: () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      collection.dispose();
    },
  };
}

function toVsDiagnostic(d: DiagnosticItem): vscode.Diagnostic {
  const r = d.range;
  const v = new vscode.Diagnostic(new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character), d.message, SEVERITY[d.severity]);
  if (d.source) v.source = d.source;
  if (d.code !== undefined) v.code = d.code;
  return v;
}
