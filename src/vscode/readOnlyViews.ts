/**
 * Read-only virtual documents beside the editor (scheme `dsh-view`), where the palette commands
 * show their results as JSONC.
 */
import * as vscode from 'vscode';

/** The URI scheme of the views. */
export const VIEW_SCHEME = 'dsh-view';

/** The views' content provider; {@link show} opens (or updates) one. Dispose to unregister. */
export class ReadOnlyViews implements vscode.Disposable {
  private readonly views = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, {
    onDidChange: this.changed.event,
    provideTextDocumentContent: (uri) => this.views.get(uri.path) ?? '',
  });

  /** Show `text` in the view `name` (e.g. `agent-view.jsonc`) as JSONC beside the editor, keeping focus where it is. */
  async show(name: string, text: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: VIEW_SCHEME, path: `/${name}` });
    this.views.set(uri.path, text);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'jsonc');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
