/**
 * Read-only virtual documents (scheme `dsh-view` unless told otherwise), where the palette
 * commands show their results: JSONC beside the editor, or another language in the editor.
 */
import * as vscode from 'vscode';

/** The URI scheme of the views. */
export const VIEW_SCHEME = 'dsh-view';

/** How a view opens: its language id (default `jsonc`), and `beside` the editor keeping focus where it is (default) or in the editor with focus. */
export interface ViewOptions {
  language?: string;
  beside?: boolean;
}

/** The views' content provider; {@link show} opens (or updates) one. Dispose to unregister. */
export class ReadOnlyViews implements vscode.Disposable {
  private readonly views = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration: vscode.Disposable;

  /** Registers the content provider of URI scheme `scheme` (one owner per scheme). */
  constructor(private readonly scheme: string = VIEW_SCHEME) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
      onDidChange: this.changed.event,
      provideTextDocumentContent: (uri) => this.views.get(uri.path) ?? '',
    });
  }

  /** Show `text` in the view `name` (e.g. `agent-view.jsonc`) as `options` say, as a preview. */
  async show(name: string, text: string, options: ViewOptions = {}): Promise<vscode.TextDocument> {
    const { language = 'jsonc', beside = true } = options;
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${name}` });
    this.views.set(uri.path, text);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, language);
    await vscode.window.showTextDocument(
      doc,
      beside ? { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true } : { preview: true },
    );
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
