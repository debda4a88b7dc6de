/**
 * User-configured language servers (`dsh.lsp.servers`) on the navigation seam: one
 * {@link StdioLspProvider} per valid entry, registered on the navigation seam (so it takes its
 * extensions from the VS Code fallback provider, and gives them back when it goes), with its
 * symbols, diagnostics and call hierarchy in the feature registry.
 *
 * The client side of the protocol is `vscode-languageclient`'s node module: its re-export of the
 * protocol connection and request types (`createProtocolConnection`, `DefinitionRequest`, …) is
 * handed to the plain-Node provider. No `LanguageClient` is created, so nothing is registered into
 * VS Code's own feature registry (no document sync, no definition/hover providers): the servers'
 * answers reach agents through the seam (`dsh_lsp`) only and never flow into
 * `vscode.execute*Provider`.
 *
 * Restricted Mode: no server is registered or started while the workspace is untrusted (a language
 * server reads and may run workspace code, e.g. typescript-language-server loads the workspace's own
 * TypeScript); the VS Code provider keeps serving those extensions; trust granted loads them.
 *
 * Agent sandbox: DSH Bridge starts the servers outside it. While it is on, a server whose program,
 * `#!` interpreter or script argument lies in a folder sandboxed commands can write (the workspace
 * folders, the sandbox's temp and storage folders, `allowWrite`, the runtime's own) is not started
 * and its answer says why (src/lsp/stdio/launchGuard.ts); the check runs at every start.
 *
 * Lifecycle: providers start their server on their first query; every provider is stopped (its
 * server and process group ended) when the setting changes (all entries are re-read and
 * re-registered), when the agent sandbox settings (`chat.agent.sandbox.*` and the others of
 * SANDBOX_SETTING_SECTIONS, older names included, `dsh.terminal.sandbox`) or the workspace folders change (a server started while the sandbox was
 * off must not keep running from a folder it now lets sandboxed commands write; the next query
 * starts it again under the check), and when the extension deactivates. A bad entry is logged and reported in one
 * notification per load, with an "Open Settings" action; the other entries still work.
 */
import { errorMessage } from '../../common/errorMessage';
import * as vscode from 'vscode';
import * as languageclient from 'vscode-languageclient/node';
import { parseServerConfigs, SERVERS_SETTING, StdioServerConfig } from '../../lsp/stdio/config';
import { StdioLspProvider, StdioServerState } from '../../lsp/stdio/provider';
import type { NavigationContext } from './navigationContext';
import { StdioFeatures } from '../../lsp/stdio/features';
import { SANDBOX_SETTING_SECTIONS } from '../../terminal/sandbox/settingKeys';

/** What {@link registerStdioServers} needs besides the navigation context. */
export interface StdioServersOptions {
  /**
   * The absolute folders sandboxed commands can write while the agent sandbox is on, undefined
   * while it is off; asked at every server start (see the module comment).
   */
  readonly writableWhileSandboxed?: () => Promise<readonly string[] | undefined>;
}

/** One configured server as "DSH: Show Effective Configuration" shows it. */
export interface StdioServerDescription {
  readonly id: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly extensions: Readonly<Record<string, string>>;
  /** `idle` until its first query; `running`, `backoff` (after a crash), `failed`, `stopped`. */
  readonly state: StdioServerState;
  /** Why its latest start did not start it (refused while the agent sandbox is on, or cannot be started); absent once a start succeeds. */
  readonly startError?: string;
}

/** What {@link registerStdioServers} returns: the servers, which describe themselves and end with `dispose`. */
export interface StdioServers {
  /** The registered servers, in setting order. */
  describe(): StdioServerDescription[];
  /** Problems found in the setting at the last load (one sentence per skipped entry). */
  readonly errors: readonly string[];
  /** Stops listening to the settings and stops every server; resolves once their processes are gone (the lifetimes owner awaits it). */
  dispose(): Promise<void>;
}

/**
 * Read `dsh.lsp.servers` now and on every change (and on a change of the agent sandbox settings or
 * the workspace folders), and keep one registered provider per valid entry
 * on `nav.service` (taking precedence over the fallback), its symbols, diagnostics and call
 * hierarchy in `nav.features` under the server's id; start, stop, crash and configuration
 * messages go to `nav.log`.
 */
export function registerStdioServers(nav: NavigationContext, options: StdioServersOptions = {}): StdioServers {
  const { service, features, log } = nav;
  let current: { provider: StdioLspProvider; registration: vscode.Disposable }[] = [];
  let errors: string[] = [];

  const unload = (): Promise<void> => {
    const old = current;
    current = [];
    for (const c of old) c.registration.dispose();
    return Promise.all(old.map((c) => c.provider.stop())).then(() => undefined);
  };

  const load = () => {
    void unload();
    const parsed = parseServerConfigs(vscode.workspace.getConfiguration().get<unknown>(SERVERS_SETTING));
    errors = [...parsed.errors];
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    if (parsed.servers.length > 0 && !vscode.workspace.isTrusted) {
      // A language server reads, and may run, code from the workspace (typescript-language-server
      // loads the workspace's own TypeScript): none starts in Restricted Mode.
      log.info(
        `${SERVERS_SETTING}: ${parsed.servers.length} server(s) configured, none started: the workspace is not trusted (Restricted Mode); trust it to use them`,
      );
    } else if (parsed.servers.length > 0 && !folder) {
      errors.push(`${SERVERS_SETTING}: language servers run in a local workspace folder; this window has none, so none is started`);
    } else if (folder) {
      for (const config of parsed.servers) {
        const provider = new StdioLspProvider(config, {
          protocol: languageclient,
          workspaceUri: folder.uri.toString(),
          log,
          writableWhileSandboxed: options.writableWhileSandboxed,
        });
        try {
          const registration = service.registerProvider(provider);
          const f = new StdioFeatures(provider);
          const extra = [features.register('symbols', f), features.register('diagnostics', f), features.register('callHierarchy', f)];
          current.push({ provider, registration: { dispose: () => (registration.dispose(), extra.forEach((d) => d.dispose())) } });
          log.info(
            `lsp '${config.id}': serves ${describeExtensions(config)} (starts on first query): ${config.command} ${config.args.join(' ')}`,
          );
        } catch (e) {
          errors.push(`${SERVERS_SETTING} entry '${config.id}' cannot be registered: ${errorMessage(e)}; skipped`);
        }
      }
    }
    if (errors.length > 0) {
      for (const e of errors) log.error(e);
      const text =
        errors.length === 1 ? errors[0]! : `${errors.length} problems in ${SERVERS_SETTING} (see the DSH Bridge output): ${errors[0]}`;
      void vscode.window.showErrorMessage(`DSH Bridge: ${text}`, 'Open Settings', 'Open Output').then((pick) => {
        if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', SERVERS_SETTING);
        if (pick === 'Open Output') log.show(true);
      });
    }
  };

  load();
  const listeners = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SERVERS_SETTING) || SANDBOX_SETTING_SECTIONS.some((section) => e.affectsConfiguration(section))) load();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(load),
    vscode.workspace.onDidGrantWorkspaceTrust(load),
  ];

  return {
    get errors() {
      return errors;
    },
    describe: () =>
      current.map(({ provider }) => ({
        id: provider.id,
        command: provider.config.command,
        args: provider.config.args,
        extensions: provider.config.extensions,
        state: provider.state,
        ...(provider.startError !== undefined ? { startError: provider.startError } : {}),
      })),
    dispose: async () => {
      for (const l of listeners) l.dispose();
      await unload();
    },
  };
}

function describeExtensions(config: StdioServerConfig): string {
  return Object.entries(config.extensions)
    .map(([e, l]) => `${e} (${l})`)
    .join(', ');
}
