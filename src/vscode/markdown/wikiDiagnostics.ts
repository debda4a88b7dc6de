/**
 * Wiki-link problems of markdown notes in VS Code's Problems panel: the `md-links` diagnostics
 * (broken, ambiguous, missing heading or block) published through a `vscode.DiagnosticCollection`
 * named `md-links`, for every workspace folder that holds notes, refreshed (debounced) whenever the
 * index changes. The same diagnostics answer `dsh_diagnostics` for notes, from the index directly.
 * Whether a folder holds notes is searched once per folder (`findFiles`, a ripgrep run), then
 * learned from note events ({@link NoteFolders}): a refresh runs no search. A refresh hands VS Code
 * only the files whose problems changed ({@link PublishedDiagnostics}), at most
 * {@link SET_BATCH_FILES} files per `DiagnosticCollection.set`, yielding between batches, so a
 * vault full of problems does not hold the extension host thread.
 */
import * as vscode from 'vscode';
import { SEVERITIES } from '../../lsp/features/types';
import type { DiagnosticItem, DiagnosticProvider } from '../../lsp/features/types';
import { PublishedDiagnostics } from '../../lsp/features/diagnosticsDelta';
import { errorMessage } from '../../common/errorMessage';
import { NoteFolders } from '../../lsp/wikilinks/noteFolders';
import { TimeSlice } from '../../lsp/timeSlice';

const SEVERITY: Record<(typeof SEVERITIES)[number], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** Most files handed to one `DiagnosticCollection.set` (one message to the window). */
const SET_BATCH_FILES = 500;

/** The publisher: call `refresh()` after the index changed; `dispose()` clears the panel. */
export interface WikiDiagnostics extends vscode.Disposable {
  /**
   * Recompute after `delayMs` (default 300), coalescing calls in between. `changedUri`: the file
   * created or changed that caused it; a note there tells that its workspace folder holds notes.
   */
  refresh(delayMs?: number, changedUri?: string): void;
  /** Resolves when the refresh scheduled or running now is done (for tests). */
  idle(): Promise<void>;
}

/**
 * Publish `source`'s workspace diagnostics for each workspace folder that contains a `.md` or
 * `.markdown` file (searched once per folder, then known from note events passed to `refresh`;
 * folders without notes cost nothing).
 */
export function registerWikiDiagnostics(source: DiagnosticProvider, log: vscode.LogOutputChannel): WikiDiagnostics {
  const collection = vscode.languages.createDiagnosticCollection('md-links');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let disposed = false;
  const noteFolders = new NoteFolders(async (folderUri) => {
    const found = await vscode.workspace.findFiles(
      new vscode.RelativePattern(vscode.Uri.parse(folderUri), '**/*.{md,markdown}'),
      '**/node_modules/**',
      1,
    );
    return found.length > 0;
  });
  const folderChanges = vscode.workspace.onDidChangeWorkspaceFolders((e) => {
    e.removed.forEach((f) => noteFolders.forget(f.uri.toString()));
    refresh(0);
  });

  const published = new PublishedDiagnostics();
  const publish = async () => {
    const all: DiagnosticItem[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (!(await noteFolders.holdsNotes(folder.uri.toString())) || disposed) continue;
      try {
        const answer = await source.workspaceDiagnostics({ workspaceUri: folder.uri.toString(), signal: new AbortController().signal });
        for (const d of answer.diagnostics) all.push(d);
      } catch (e) {
        log.warn(`md-links diagnostics for ${folder.uri.toString()} failed: ${errorMessage(e)}`);
      }
    }
    if (disposed) return;
    // Only the files whose problems changed, in batches with a yield between (see the module comment).
    const { changed, cleared } = await published.update(all);
    const slice = new TimeSlice();
    let batch: Array<[vscode.Uri, vscode.Diagnostic[] | undefined]> = [];
    const send = () => {
      if (batch.length > 0 && !disposed) collection.set(batch);
      batch = [];
    };
    const add = async (entry: [vscode.Uri, vscode.Diagnostic[] | undefined]) => {
      batch.push(entry);
      if (batch.length >= SET_BATCH_FILES) send();
      await slice.pause();
    };
    for (const uri of cleared) await add([vscode.Uri.parse(uri), undefined]);
    for (const [uri, list] of changed) await add([vscode.Uri.parse(uri), list.map(toVsDiagnostic)]);
    send();
  };

  // Debounced: the publish runs `delayMs` after the last refresh. A burst of refreshes (one per
  // file event) moves a due time instead of replacing a timer each.
  let dueAt = 0;
  const fire = () => {
    const left = dueAt - performance.now();
    if (left > 1) {
      timer = setTimeout(fire, left);
      return;
    }
    timer = undefined;
    running = running.then(publish, publish);
  };
  const refresh = (delayMs = 300, changedUri?: string) => {
    if (disposed) return;
    if (changedUri)
      noteFolders.noteSeen(
        changedUri,
        (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()),
      );
    const due = performance.now() + delayMs;
    if (timer && due >= dueAt) {
      dueAt = due;
      return;
    }
    if (timer) clearTimeout(timer);
    dueAt = due;
    timer = setTimeout(fire, delayMs);
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
      folderChanges.dispose();
      collection.dispose();
    },
  };
}

function toVsDiagnostic(d: DiagnosticItem): vscode.Diagnostic {
  const r = d.range;
  const v = new vscode.Diagnostic(
    new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
    d.message,
    SEVERITY[d.severity],
  );
  if (d.source) v.source = d.source;
  if (d.code !== undefined) v.code = d.code;
  return v;
}
