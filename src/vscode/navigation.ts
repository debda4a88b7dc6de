/**
 * Navigation in the extension: the seam's {@link LspService} with the `md-links` wiki-link provider
 * (reading through `vscode.workspace.fs`, kept current by a file watcher and editor edits) and the
 * VS Code provider (every other contributed language), the `dsh_lsp` tool, VS Code's own
 * definition/reference/hover providers for markdown from `md-links` (setting
 * `dsh.markdown.editorProviders`), the `dsh_symbols`, `dsh_diagnostics` and `dsh_call_hierarchy`
 * tools with their sources (VS Code, `md-links`, whose link problems also go to the Problems
 * panel, and configured stdio servers), and the palette commands "DSH: Show What the Agent Sees at
 * Cursor" and "DSH: Show Effective Configuration".
 */
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { COMMAND, SETTING } from '../common/ids';
import { characterToModelColumn } from '../lsp/position';
import { LspService } from '../lsp/service';
import { LSP_OPERATIONS, LspOperation, LspProvider, NavLocation, Disposable as SeamDisposable } from '../lsp/types';
import { MdLinksProvider } from '../lsp/wikilinks/provider';
import type { AliasOrder } from '../lsp/wikilinks/parse';
import { FileStat, WorkspaceFs } from '../lsp/wikilinks/workspaceFs';
import { readInsideWorkspace } from './fileAccess';
import { LspTool } from './lspTool';
import { VsCodeProvider, contributedExtensions } from './vscodeProvider';
import { registerStdioServers } from './stdioProvider';
import { FeatureRegistry } from '../lsp/features/registry';
import { MdLinksFeatures, NO_CALL_HIERARCHY } from '../lsp/wikilinks/features';
import { DiagnosticsTracker, VsCodeFeatures } from './vscodeFeatures';
import { CallHierarchyTool, DiagnosticsTool, SymbolsTool } from './featureTools';
import { registerWikiDiagnostics } from './wikiDiagnostics';

/** Settings of this module (declared in package.json `contributes.configuration`). */
export const EDITOR_PROVIDERS_SETTING = SETTING.markdownEditorProviders;
export const ALIAS_ORDER_SETTING = SETTING.markdownAliasOrder;

/** Commands of this module (declared in package.json `contributes.commands`). */
export const SHOW_AGENT_VIEW_COMMAND = COMMAND.showAgentViewAtCursor;
export const SHOW_CONFIGURATION_COMMAND = COMMAND.showEffectiveConfiguration;

const VIEW_SCHEME = 'dsh-view';

/**
 * A {@link WorkspaceFs} on `vscode.workspace.fs` (works in remote and virtual workspaces); file
 * text through the navigation read, inside the workspace only. URIs are
 * strings parsed with `Uri.parse`. `realUri` resolves symbolic links for `file:` URIs with Node's
 * `realpath` (the extension runs where the files are) and returns other URIs unchanged. Errors are
 * `vscode.FileSystemError`s (`code: 'FileNotFound'` for a missing file).
 */
export class VsCodeWorkspaceFs implements WorkspaceFs {
  /**
   * A note's bytes, read only inside the workspace with the navigation read (`./fileAccess.ts`):
   * FIFOs, devices, `/proc` files, files over the cap and files whose real path is outside every
   * workspace folder are refused (the index skips them and the extension logs why).
   */
  async readFile(uri: string): Promise<Uint8Array> {
    return readInsideWorkspace(vscode.Uri.parse(uri));
  }

  async readDirectory(uri: string): Promise<ReadonlyArray<readonly [string, number]>> {
    return vscode.workspace.fs.readDirectory(vscode.Uri.parse(uri));
  }

  async stat(uri: string): Promise<FileStat> {
    const s = await vscode.workspace.fs.stat(vscode.Uri.parse(uri));
    return { type: s.type, mtime: s.mtime, size: s.size };
  }

  async realUri(uri: string): Promise<string> {
    const u = vscode.Uri.parse(uri);
    if (u.scheme !== 'file') return u.toString();
    try {
      return vscode.Uri.file(await fsp.realpath(u.fsPath)).toString();
    } catch (e) {
      if ((e as { code?: unknown }).code === 'ENOENT') throw Object.assign(new Error(`not found: ${u.fsPath}`), { code: 'ENOENT' });
      throw e;
    }
  }
}

/**
 * The {@link LspService} of the extension: the VS Code provider is a *fallback* that serves the
 * contributed extensions no other provider serves. A provider registered later (md-links, or
 * another extension through the API) may take an extension the fallback holds: the fallback is
 * re-registered without it, and takes it back when that provider is disposed. Every other rule of
 * `registerProvider` (validation, atomic reservation, conflicts between non-fallback providers)
 * is unchanged.
 */
export class NavigationService extends LspService {
  /** Re-registers the fallback provider over the extensions nobody else serves (set by {@link registerNavigation}). */
  reclaim: () => void = () => undefined;
  /**
   * Fresh instances of the navigation tools (`dsh_lsp`, `dsh_symbols`, `dsh_diagnostics`,
   * `dsh_call_hierarchy`) by name, for another surface (MCP: one set per client connection, so a
   * consent one client was given is never another's). Set by {@link registerNavigation}.
   */
  createTools: () => Map<string, vscode.LanguageModelTool<object>> = () => new Map();
  private fallback: { id: string; extensions: ReadonlySet<string> } | undefined;

  /** Register the fallback provider (the VS Code provider); see the class comment. */
  registerFallback(provider: LspProvider): SeamDisposable {
    const registration = super.registerProvider(provider);
    const mine = { id: provider.id, extensions: new Set(Object.keys(provider.extensions)) };
    this.fallback = mine;
    return {
      dispose: () => {
        if (this.fallback === mine) this.fallback = undefined;
        registration.dispose();
      },
    };
  }

  override registerProvider(provider: LspProvider): SeamDisposable {
    const wanted = Object.keys((provider as Partial<LspProvider> | null)?.extensions ?? {}).map((e) => e.toLowerCase());
    const fallback = this.fallback;
    const overlaps = fallback !== undefined && provider?.id !== fallback.id && wanted.some((e) => fallback.extensions.has(e));
    if (!overlaps) return super.registerProvider(provider);
    // Release the fallback, register, and let the fallback take what is still free (also on failure).
    this.fallbackRelease();
    let registration: SeamDisposable;
    try {
      registration = super.registerProvider(provider);
    } finally {
      this.reclaim();
    }
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        registration.dispose();
        this.fallbackRelease();
        this.reclaim();
      },
    };
  }

  private fallbackRelease(): void {
    this.releaseFallback?.();
  }

  /** Disposes the current fallback registration (set by {@link registerNavigation}). */
  releaseFallback: (() => void) | undefined;
}

/**
 * Register navigation: builds the {@link LspService}, registers `md-links` and the VS Code provider
 * on it, the `dsh_lsp` tool, the markdown editor providers and the two palette commands; everything
 * is disposed with `context`.
 * @param backendTypes the registered terminal backends, for "Show Effective Configuration".
 * @returns the service (exposed as `navigation` in the extension API so other extensions can
 *   register providers).
 */
export function registerNavigation(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, backendTypes: () => string[] = () => []): NavigationService {
  const service = new NavigationService();
  const subs = context.subscriptions;

  const aliasOrder = (): AliasOrder => (vscode.workspace.getConfiguration().get<string>(ALIAS_ORDER_SETTING) === 'alias-first' ? 'alias-first' : 'target-first');
  const onSkip = (uri: string, message: string) => log.warn(`md-links: skipped ${uri}: ${message}`);
  let md = new MdLinksProvider(new VsCodeWorkspaceFs(), { aliasOrder: aliasOrder(), onSkip });
  let mdRegistration = service.registerProvider(md);
  subs.push({ dispose: () => (mdRegistration.dispose(), md.dispose()) });

  // Keep md-links indexes current: saved notes through the watcher, unsaved edits through
  // documents; a second watcher reports created and deleted files and folders of any kind (folder
  // deletions, attachments such as images that links may point to).
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{md,markdown}');
  const anyFile = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  // Symbols, diagnostics and call hierarchy beside the seam: one registry routed like dsh_lsp.
  const features = new FeatureRegistry(service);
  const mdFeatures = new MdLinksFeatures(() => md);
  const wikiDiagnostics = registerWikiDiagnostics(mdFeatures, log);
  subs.push(wikiDiagnostics, features.register('symbols', mdFeatures), features.register('diagnostics', mdFeatures), features.explainMissing(mdFeatures.id, 'callHierarchy', NO_CALL_HIERARCHY));
  const tracker = new DiagnosticsTracker();
  const vsFeatures = new VsCodeFeatures(tracker);
  subs.push(tracker, features.register('symbols', vsFeatures), features.register('diagnostics', vsFeatures), features.register('callHierarchy', vsFeatures));

  const changed = (uri: vscode.Uri) =>
    void md
      .onFileChanged(uri.toString())
      .then(() => wikiDiagnostics.refresh())
      .catch((e) => log.warn(`md-links: update of ${uri.toString()} failed: ${String(e)}`));
  const deleted = (uri: vscode.Uri) => void md.onFileDeleted(uri.toString()).then(() => wikiDiagnostics.refresh());
  subs.push(
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete(deleted),
    anyFile,
    anyFile.onDidCreate(changed),
    anyFile.onDidDelete(deleted),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId === 'markdown' && e.contentChanges.length > 0) void md.onFileChanged(e.document.uri.toString(), e.document.getText()).then(() => wikiDiagnostics.refresh());
    }),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(deleted)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(ALIAS_ORDER_SETTING)) return;
      mdRegistration.dispose();
      md.dispose();
      md = new MdLinksProvider(new VsCodeWorkspaceFs(), { aliasOrder: aliasOrder(), onSkip });
      mdRegistration = service.registerProvider(md);
      wikiDiagnostics.refresh(0);
      log.info(`md-links: alias order is now ${aliasOrder()}`);
    }),
  );

  // The VS Code provider: every contributed extension not served by another provider. Re-claimed
  // when extensions are installed or removed.
  let vsRegistration: SeamDisposable | undefined;
  const registerVsCode = () => {
    vsRegistration?.dispose();
    vsRegistration = undefined;
    const extensions = contributedExtensions(service.servedExtensions());
    if (Object.keys(extensions).length === 0) {
      log.warn('navigation: no installed extension contributes languages; only md-links serves dsh_lsp');
      return;
    }
    vsRegistration = service.registerFallback(new VsCodeProvider(extensions));
    log.info(`navigation: vscode provider serves ${Object.keys(extensions).length} extensions`);
  };
  registerVsCode();
  service.reclaim = registerVsCode;
  service.releaseFallback = () => {
    vsRegistration?.dispose();
    vsRegistration = undefined;
  };
  subs.push(vscode.extensions.onDidChange(registerVsCode), { dispose: () => vsRegistration?.dispose() });

  // User-configured language servers (dsh.lsp.servers): registered after the fallback, so each
  // takes its extensions from the VS Code provider.
  const stdio = registerStdioServers(service, log, features);
  subs.push(stdio);

  const tool = new LspTool(service);
  subs.push(vscode.lm.registerTool(LspTool.toolName, tool));
  const symbolsTool = new SymbolsTool(features);
  const diagnosticsTool = new DiagnosticsTool(features);
  const callsTool = new CallHierarchyTool(features);
  service.createTools = () =>
    new Map<string, vscode.LanguageModelTool<object>>([
      [LspTool.toolName, new LspTool(service)],
      [SymbolsTool.toolName, new SymbolsTool(features)],
      [DiagnosticsTool.toolName, new DiagnosticsTool(features)],
      [CallHierarchyTool.toolName, new CallHierarchyTool(features)],
    ]);
  subs.push(
    vscode.lm.registerTool(SymbolsTool.toolName, symbolsTool),
    vscode.lm.registerTool(DiagnosticsTool.toolName, diagnosticsTool),
    vscode.lm.registerTool(CallHierarchyTool.toolName, callsTool),
  );

  subs.push(registerMarkdownEditorProviders(() => md, log));

  // Palette commands: results in read-only virtual documents beside the editor.
  const views = new Map<string, string>();
  const viewChanged = new vscode.EventEmitter<vscode.Uri>();
  subs.push(
    viewChanged,
    vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, { onDidChange: viewChanged.event, provideTextDocumentContent: (uri) => views.get(uri.path) ?? '' }),
  );
  const showView = async (name: string, text: string) => {
    const uri = vscode.Uri.from({ scheme: VIEW_SCHEME, path: `/${name}` });
    views.set(uri.path, text);
    viewChanged.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'jsonc');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return doc;
  };

  subs.push(
    vscode.commands.registerCommand(SHOW_AGENT_VIEW_COMMAND, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme === VIEW_SCHEME) {
        void vscode.window.showInformationMessage('DSH: open a file and place the cursor on a symbol first.');
        return undefined;
      }
      const doc = editor.document;
      const pos = editor.selection.active;
      const line = pos.line + 1;
      const column = characterToModelColumn(doc.lineAt(pos.line).text, pos.character);
      const filePath = doc.uri.scheme === 'file' ? doc.uri.fsPath : doc.uri.toString();
      const sections: string[] = [
        `// What the agent's navigation tools answer at ${vscode.workspace.asRelativePath(doc.uri)}:${line}:${column} (1-based), through vscode.lm.invokeTool: ` +
          `dsh_lsp's four operations, then the file's outline (dsh_symbols), its problems (dsh_diagnostics) and the calls at the cursor (dsh_call_hierarchy)`,
      ];
      const answers: Record<string, unknown> = {};
      const asks: Array<[string, string, object]> = [
        ...LSP_OPERATIONS.map((operation): [string, string, object] => [operation, LspTool.toolName, { operation, filePath, line, column }]),
        ['symbols', SymbolsTool.toolName, { filePath }],
        ['diagnostics', DiagnosticsTool.toolName, { filePath }],
        ['callHierarchyIncoming', CallHierarchyTool.toolName, { filePath, line, column, direction: 'incoming' }],
        ['callHierarchyOutgoing', CallHierarchyTool.toolName, { filePath, line, column, direction: 'outgoing' }],
      ];
      for (const [key, toolName, input] of asks) {
        const title = `${key} (${toolName} ${JSON.stringify(input)})`;
        try {
          const result = await vscode.lm.invokeTool(toolName, { input, toolInvocationToken: undefined });
          const text = result.content.map((p) => (p as { value?: unknown }).value).filter((v): v is string => typeof v === 'string');
          answers[key] = JSON.parse(text[0] ?? 'null');
          sections.push(`// ${title}\n${JSON.stringify(answers[key], null, 2)}`);
        } catch (e) {
          answers[key] = { error: e instanceof Error ? e.message : String(e) };
          sections.push(`// ${title}: error\n${JSON.stringify(answers[key], null, 2)}`);
        }
      }
      await showView('agent-view.jsonc', sections.join('\n\n') + '\n');
      return answers;
    }),
    vscode.commands.registerCommand(SHOW_CONFIGURATION_COMMAND, async () => {
      const config = { ...effectiveConfiguration(context, service, backendTypes), languageServers: { servers: stdio.describe(), errors: stdio.errors } };
      await showView('effective-configuration.jsonc', `// DSH Bridge: effective configuration\n${JSON.stringify(config, null, 2)}\n`);
      return config;
    }),
  );
  return service;
}

/**
 * What "DSH: Show Effective Configuration" shows: terminal backends, navigation providers with
 * their extensions, the tools this extension contributes (and whether they are registered), and
 * every `dsh.*` setting in force with where its value comes from. Environment values are masked
 * ({@link maskEnvironments}): the view is a document any extension can read.
 */
export function effectiveConfiguration(context: vscode.ExtensionContext, service: LspService, backendTypes: () => string[]) {
  const pkg = context.extension.packageJSON as {
    contributes?: { languageModelTools?: Array<{ name: string }>; configuration?: { properties?: Record<string, unknown> } };
  };
  const registered = new Set(vscode.lm.tools.map((t) => t.name));
  const tools = (pkg.contributes?.languageModelTools ?? []).map((t) => ({ name: t.name, registered: registered.has(t.name) }));
  const settings: Record<string, { value: unknown; source: string }> = {};
  for (const key of Object.keys(pkg.contributes?.configuration?.properties ?? {})) {
    const i = vscode.workspace.getConfiguration().inspect(key);
    const source =
      i?.workspaceFolderValue !== undefined ? 'workspaceFolder' : i?.workspaceValue !== undefined ? 'workspace' : i?.globalValue !== undefined ? 'user' : 'default';
    settings[key] = { value: maskEnvironments(key, vscode.workspace.getConfiguration().get(key)), source };
  }
  return {
    terminalBackends: backendTypes(),
    navigationProviders: service.describe().providers.map((p) => ({ id: p.id, extensions: p.extensions.map((e) => `${e.extension} (${e.languageId})`) })),
    tools,
    settings,
  };
}

/** What a masked environment value shows instead of the value. */
export const MASKED_VALUE = '(value hidden)';

/**
 * A setting's value with environment values replaced by {@link MASKED_VALUE} (names and `null`
 * removals stay): `dsh.terminal.env` itself, and the `env` of each `dsh.lsp.servers` entry, if any.
 * Environment variables often hold tokens and passwords. Other settings are returned as they are.
 */
export function maskEnvironments(key: string, value: unknown): unknown {
  const mask = (env: unknown) =>
    typeof env === 'object' && env !== null && !Array.isArray(env)
      ? Object.fromEntries(Object.entries(env).map(([name, v]) => [name, v === null ? null : MASKED_VALUE]))
      : env === undefined || env === null
        ? env
        : MASKED_VALUE;
  if (key === 'dsh.terminal.env') return mask(value);
  if (key === 'dsh.lsp.servers' && Array.isArray(value)) {
    return value.map((entry) => (typeof entry === 'object' && entry !== null && 'env' in entry ? { ...entry, env: mask((entry as { env: unknown }).env) } : entry));
  }
  return value;
}

/** Seam locations -> VS Code locations (URIs parsed, ranges as given). */
function toVsLocations(locations: readonly NavLocation[]): vscode.Location[] {
  return locations
    .filter((l) => !l.unresolved)
    .map((l) => new vscode.Location(vscode.Uri.parse(l.uri), new vscode.Range(l.range.start.line, l.range.start.character, l.range.end.line, l.range.end.character)));
}

/**
 * VS Code's own definition, reference and hover providers for markdown files, answered by the
 * `md-links` provider, so F12 / Shift+F12 / hover work on wiki links; on while
 * `dsh.markdown.editorProviders` is true (default), re-registered when it changes.
 */
function registerMarkdownEditorProviders(md: () => MdLinksProvider, log: vscode.LogOutputChannel): vscode.Disposable {
  let registrations: vscode.Disposable | undefined;
  const ask = async (document: vscode.TextDocument, position: vscode.Position, operation: LspOperation, token: vscode.CancellationToken) => {
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    if (!folder) return undefined;
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort('cancelled'));
    try {
      const provider = md();
      await provider.onFileChanged(document.uri.toString(), document.getText());
      return await provider.query(
        { operation, uri: document.uri.toString(), position: { line: position.line, character: position.character }, languageId: 'markdown', workspaceUri: folder.uri.toString() },
        controller.signal,
      );
    } catch (e) {
      log.warn(`md-links editor ${operation} failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    } finally {
      sub.dispose();
    }
  };
  const selector: vscode.DocumentSelector = [{ language: 'markdown', scheme: 'file' }, { language: 'markdown', scheme: 'vscode-remote' }];
  const apply = () => {
    registrations?.dispose();
    registrations = undefined;
    if (vscode.workspace.getConfiguration().get<boolean>(EDITOR_PROVIDERS_SETTING, true) === false) return;
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
    if (e.affectsConfiguration(EDITOR_PROVIDERS_SETTING)) apply();
  });
  return { dispose: () => (listener.dispose(), registrations?.dispose()) };
}

/** Model column of a VS Code position (1-based, code points), for messages. */
export function modelColumnOf(document: vscode.TextDocument, position: vscode.Position): number {
  return characterToModelColumn(document.lineAt(position.line).text, position.character);
}
