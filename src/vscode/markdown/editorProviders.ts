/**
 * VS Code's own definition, reference and hover providers for markdown files, answered by the
 * `md-links` provider, so F12 / Shift+F12 / hover work on wiki links in the editor (setting
 * `dsh.markdown.editorProviders`).
 */
import * as vscode from 'vscode';
import { SETTING } from '../../common/ids';
import type { LspOperation, NavLocation } from '../../lsp/types';
import type { MdLinksProvider } from '../../lsp/wikilinks/provider';
import { abortOnCancel } from '../cancellation';
import { errorMessage } from '../../common/errorMessage';

/** Seam locations -> VS Code locations (URIs parsed, ranges as given). */
function toVsLocations(locations: readonly NavLocation[]): vscode.Location[] {
  return locations
    .filter((l) => !l.unresolved)
    .map(
      (l) =>
        new vscode.Location(
          vscode.Uri.parse(l.uri),
          new vscode.Range(l.range.start.line, l.range.start.character, l.range.end.line, l.range.end.character),
        ),
    );
}

/**
 * VS Code's own definition, reference and hover providers for markdown files, answered by the
 * `md-links` provider, so F12 / Shift+F12 / hover work on wiki links; on while
 * `dsh.markdown.editorProviders` is true (default), re-registered when it changes.
 */
export function registerMarkdownEditorProviders(md: () => MdLinksProvider, log: vscode.LogOutputChannel): vscode.Disposable {
  let registrations: vscode.Disposable | undefined;
  // The document version last handed to the index: a saved document handed already is not parsed
  // again per query (the file watcher keeps the index equal to the file); an unsaved one always is.
  // A saved document is re-read from its file (no copy of the editor's text on this thread: the
  // bytes go to the parser's worker); an unsaved one hands its text, taken when the update runs.
  const handed = new WeakMap<vscode.TextDocument, { provider: MdLinksProvider; version: number }>();
  const ask = async (
    document: vscode.TextDocument,
    position: vscode.Position,
    operation: LspOperation,
    token: vscode.CancellationToken,
  ) => {
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (!folder) return undefined;
    const cancellation = abortOnCancel(token);
    try {
      const provider = md();
      const last = handed.get(document);
      if (document.isDirty || last?.provider !== provider || last.version !== document.version) {
        await provider.onFileChanged(document.uri.toString(), document.isDirty ? () => document.getText() : undefined);
        handed.set(document, { provider, version: document.version });
      }
      return await provider.query(
        {
          operation,
          uri: document.uri.toString(),
          position: { line: position.line, character: position.character },
          languageId: 'markdown',
          workspaceUri: folder.uri.toString(),
        },
        cancellation.signal,
      );
    } catch (e) {
      log.warn(`md-links editor ${operation} failed: ${errorMessage(e)}`);
      return undefined;
    } finally {
      cancellation.dispose();
    }
  };
  const selector: vscode.DocumentSelector = [
    { language: 'markdown', scheme: 'file' },
    { language: 'markdown', scheme: 'vscode-remote' },
  ];
  const apply = () => {
    registrations?.dispose();
    registrations = undefined;
    if (vscode.workspace.getConfiguration().get<boolean>(SETTING.markdownEditorProviders, true) === false) return;
    registrations = vscode.Disposable.from(
      vscode.languages.registerDefinitionProvider(selector, {
        provideDefinition: async (doc, pos, token) => {
          const r = await ask(doc, pos, 'goToDefinition', token);
          return r?.kind === 'locations' ? toVsLocations(r.locations) : undefined;
        },
      }),
      vscode.languages.registerReferenceProvider(selector, {
        provideReferences: async (doc, pos, ctx, token) => {
          const r = await ask(doc, pos, 'findReferences', token);
          return r?.kind === 'locations' ? toVsLocations(r.locations.filter((l) => ctx.includeDeclaration || !l.isDeclaration)) : undefined;
        },
      }),
      vscode.languages.registerHoverProvider(selector, {
        provideHover: async (doc, pos, token) => {
          const r = await ask(doc, pos, 'hover', token);
          return r?.kind === 'hover' && r.contents ? new vscode.Hover(new vscode.MarkdownString(r.contents)) : undefined;
        },
      }),
    );
  };
  apply();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SETTING.markdownEditorProviders)) apply();
  });
  return {
    dispose: () => {
      listener.dispose();
      registrations?.dispose();
    },
  };
}
