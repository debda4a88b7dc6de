/**
 * TypeScript documents in no project, and how a call gets TypeScript out of its loading state for
 * them (VS Code layer).
 *
 * TypeScript's `SyntaxRoutingTsServer` (typescript-language-features, 1.100 and 1.139 alike) starts
 * out "loading": until its semantic server reports a project loaded (`projectLoadingFinish`) or
 * diagnostics (`semanticDiag`, `syntaxDiag`, `suggestionDiag`, `configFileDiag`), it sends hovers,
 * references, implementations and workspace symbols to its syntax-only server, which sees open
 * files only and prefixes its hovers with "(loading...)". A document under no `tsconfig.json` or
 * `jsconfig.json` up to its workspace folder (an inferred project, as for a folder of plain
 * JavaScript) loads no project, and TypeScript asks for diagnostics only of documents shown in a
 * tab (`BufferSyncSupport.shouldValidate`): in a window that shows none, its answers stay
 * "(loading...)" for good, and a call would wait for its whole time limit to say "not ready". Showing such a document in a preview
 * tab, focus kept (as `dsh_diagnostics` shows the file it checks), has TypeScript check it, and the
 * diagnostics it reports end the loading state for every document.
 */
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { LanguageProbe } from './languageLoading';

/** How long (ms) into a call a document's language may say it is loading before the document is shown, if it is in no project. */
export const LOOSE_SHOW_AFTER_MS = 1000;

/** Languages TypeScript answers for; only their documents are shown. */
const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/** Whether `uri` is shown in a tab of any editor group. */
export function isInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === key),
  );
}

/**
 * Whether a `tsconfig.json` or `jsconfig.json` lies in the folder of `file` (an absolute path) or
 * a folder above it, up to `top` (an absolute folder path above `file`) or, without one, the root:
 * TypeScript looks for one there and loads it as the file's project. VS Code's TypeScript support
 * gives its server a project root (see {@link projectRoot}), where the search stops.
 */
export async function inProjectFolder(file: string, top?: string): Promise<boolean> {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      if (
        await fsp.stat(path.join(dir, name)).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        return true;
    }
    if (dir === top || path.dirname(dir) === dir) return false;
  }
}

/**
 * The folder TypeScript gives its server as the project root of `file` (an absolute path): the
 * outermost `file:` workspace folder holding it (typescript-language-features,
 * `getWorkspaceRootForResource`, takes the shortest path); undefined outside every folder.
 */
function projectRoot(file: string): string | undefined {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const holding = roots.filter((root) => file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
  return holding.sort((a, b) => a.length - b.length)[0];
}

/** Whether TypeScript checks documents of `languageId` (`typescript.validate.enable`, `javascript.validate.enable`; default on). */
function validated(document: vscode.TextDocument): boolean {
  const section = document.languageId.startsWith('javascript') ? 'javascript' : 'typescript';
  return vscode.workspace.getConfiguration(section, document.uri).get<boolean>('validate.enable', true) !== false;
}

/**
 * One call's watch over documents whose language keeps saying it is loading: pass each probe to
 * {@link seen} (or the probes of several documents asked together to {@link seenAll}). Once a probe
 * of a TypeScript or JavaScript `file:` document says `loading` {@link LOOSE_SHOW_AFTER_MS} or more
 * into the call, and the document is in no project, in no tab and checked by TypeScript (its
 * `validate.enable` is on: otherwise showing it ends nothing), it is shown in a preview tab with
 * focus kept, once per call and document (see the module comment).
 */
export class LooseDocuments {
  private readonly started = Date.now();
  /** Documents shown, by URI. */
  private readonly looked = new Set<string>();
  /** Whether a document's file is in a project, by URI: asked once per call. */
  private readonly inProject = new Map<string, Promise<boolean>>();

  /**
   * Looks at `probe`, asked of `document` just now; resolves once the document is shown, if it is.
   * Nothing is shown once `signal` aborted; a show that fails is left (the call goes on asking).
   */
  async seen(document: vscode.TextDocument, probe: LanguageProbe, signal: AbortSignal): Promise<void> {
    await this.seenAll([document], [probe], signal);
  }

  /**
   * {@link seen} for documents asked together (one of each project and language, for a
   * workspace-wide question), `probes[k]` of `documents[k]`: nothing is shown while one that says
   * loading is in a project, whose load ends the loading state for all; else the first loose one.
   */
  async seenAll(documents: readonly vscode.TextDocument[], probes: readonly LanguageProbe[], signal: AbortSignal): Promise<void> {
    if (Date.now() - this.started < LOOSE_SHOW_AFTER_MS) return;
    const loading = documents.filter((d, k) => probes[k]?.state === 'loading' && d.uri.scheme === 'file' && TS_LANGUAGES.has(d.languageId));
    for (const document of loading) if (await this.isInProject(document)) return;
    const first = loading.find((d) => !this.looked.has(d.uri.toString()) && !isInTab(d.uri) && validated(d));
    if (!first || signal.aborted) return;
    this.looked.add(first.uri.toString());
    try {
      await vscode.window.showTextDocument(first, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Active });
    } catch {
      // The editor refused to show it (e.g. the window is closing): the call asks on until its limit.
    }
  }

  private isInProject(document: vscode.TextDocument): Promise<boolean> {
    const key = document.uri.toString();
    let known = this.inProject.get(key);
    if (!known) this.inProject.set(key, (known = inProjectFolder(document.uri.fsPath, projectRoot(document.uri.fsPath))));
    return known;
  }
}
