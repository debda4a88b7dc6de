/**
 * The `md-links` wiki-link provider in the extension: registered on the navigation seam for
 * `.md`/`.markdown` (reading through `vscode.workspace.fs`), kept current by file watchers and
 * editor edits, rebuilt when `dsh.markdown.aliasOrder` changes; its symbols and diagnostics beside
 * the seam (link problems also go to the Problems panel) and VS Code's own editor providers for
 * markdown.
 */
import { errorMessage } from '../../common/errorMessage';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETTING } from '../../common/ids';
import type { AliasOrder } from '../../lsp/wikilinks/parsedNote';
import { MdLinksFeatures, NO_CALL_HIERARCHY } from '../../lsp/wikilinks/features';
import { MdLinksProvider } from '../../lsp/wikilinks/provider';
import { WorkerNoteParser } from '../../lsp/wikilinks/workerNoteParser';
import { registerMarkdownEditorProviders } from './editorProviders';
import type { NavigationContext } from '../navigation/navigationContext';
import { VsCodeWorkspaceFs } from '../navigation/vscodeWorkspaceFs';
import { registerWikiDiagnostics } from './wikiDiagnostics';
import { FileEventQueue } from '../fileEventQueue';

/**
 * Register `md-links` on `nav.service` and `nav.features`, with its watchers, the Problems panel
 * publisher and the markdown editor providers; everything is disposed with the returned Disposable.
 */
export function registerMdLinks(nav: NavigationContext): vscode.Disposable {
  const { service, features, log } = nav;
  const subs: vscode.Disposable[] = [];
  const aliasOrder = (): AliasOrder =>
    vscode.workspace.getConfiguration().get<string>(SETTING.markdownAliasOrder) === 'alias-first' ? 'alias-first' : 'target-first';
  const onSkip = (uri: string, message: string) => log.warn(`md-links: skipped ${uri}: ${message}`);
  // Notes are parsed in a worker thread (the bundle next to this one), never on the extension host
  // thread; one worker serves every provider built here and is terminated with them.
  const parser = new WorkerNoteParser({ entry: path.join(__dirname, 'noteParseWorker.js') });
  subs.push(parser);
  // The provider in force, rebuilt when the alias order changes.
  const build = () => new MdLinksProvider(new VsCodeWorkspaceFs(), { aliasOrder: aliasOrder(), onSkip, parser });
  let md = build();
  let mdRegistration = service.registerProvider(md);
  subs.push({ dispose: () => (mdRegistration.dispose(), md.dispose()) });

  // Symbols and diagnostics beside the seam, read from the current provider.
  const mdFeatures = new MdLinksFeatures(() => md);
  const wikiDiagnostics = registerWikiDiagnostics(mdFeatures, log);
  subs.push(
    wikiDiagnostics,
    features.register('symbols', mdFeatures),
    features.register('diagnostics', mdFeatures),
    features.explainMissing(mdFeatures.id, 'callHierarchy', NO_CALL_HIERARCHY),
  );

  // Keep md-links indexes current: saved notes through the watcher, unsaved edits through
  // documents; a second watcher reports created and deleted files and folders of any kind (folder
  // deletions, attachments such as images that links may point to).
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{md,markdown}');
  const anyFile = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  // A burst of events (10 000 files written) is handled in slices, not in the listener.
  const events = new FileEventQueue(
    async (uri, kind) => {
      const text = uri.toString();
      if (kind === 'deleted') {
        await md.onFileDeleted(text);
        wikiDiagnostics.refresh();
      } else {
        await md.onFileChanged(text);
        wikiDiagnostics.refresh(undefined, text);
      }
    },
    (uri, e) => log.warn(`md-links: update of ${uri.toString()} failed: ${errorMessage(e)}`),
  );
  const changed = (uri: vscode.Uri) => events.push(uri, 'changed');
  const deleted = (uri: vscode.Uri) => events.push(uri, 'deleted');
  subs.push(
    events,
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete(deleted),
    anyFile,
    anyFile.onDidCreate(changed),
    anyFile.onDidDelete(deleted),
    // The text is taken when the update runs: a burst of edits copies a big document's text once.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId === 'markdown' && e.contentChanges.length > 0)
        void md
          .onFileChanged(e.document.uri.toString(), () => e.document.getText())
          .then(() => wikiDiagnostics.refresh(undefined, e.document.uri.toString()));
    }),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(deleted)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SETTING.markdownAliasOrder)) return;
      mdRegistration.dispose();
      // The folders only the old indexes watched (no file watcher does) are watched by the new ones.
      const watched = md.watchedFolderUris();
      md.dispose();
      md = build();
      md.takeOverWatches(watched);
      mdRegistration = service.registerProvider(md);
      wikiDiagnostics.refresh(0);
      log.info(`md-links: alias order is now ${aliasOrder()}`);
    }),
  );

  subs.push(registerMarkdownEditorProviders(() => md, log));
  return vscode.Disposable.from(...subs);
}
