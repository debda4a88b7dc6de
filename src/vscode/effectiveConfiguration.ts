/**
 * What "DSH: Show Effective Configuration" shows: terminal backends, navigation providers, tools
 * and every `dsh.*` setting in force, with environment values masked.
 */
import * as vscode from 'vscode';
import { SETTING } from '../common/ids';
import type { LspService } from '../lsp/service';
import { contributedTools } from './tools/registry';

/**
 * What "DSH: Show Effective Configuration" shows: terminal backends, navigation providers with
 * their extensions, the tools this extension contributes (and whether they are registered), and
 * every `dsh.*` setting in force with where its value comes from. Environment values are masked
 * ({@link maskEnvironments}): the view is a document any extension can read.
 */
export function effectiveConfiguration(context: vscode.ExtensionContext, service: LspService, backendTypes: () => string[]) {
  const pkg = context.extension.packageJSON as {
    contributes?: { configuration?: { properties?: Record<string, unknown> } };
  };
  const registered = new Set(vscode.lm.tools.map((t) => t.name));
  const tools = contributedTools(context).map((t) => ({ name: t.name, registered: registered.has(t.name) }));
  const settings: Record<string, { value: unknown; source: string }> = {};
  const config = vscode.workspace.getConfiguration();
  for (const key of Object.keys(pkg.contributes?.configuration?.properties ?? {})) {
    const i = config.inspect(key);
    const source =
      i?.workspaceFolderValue !== undefined
        ? 'workspaceFolder'
        : i?.workspaceValue !== undefined
          ? 'workspace'
          : i?.globalValue !== undefined
            ? 'user'
            : 'default';
    settings[key] = { value: maskEnvironments(key, config.get(key)), source };
  }
  return {
    terminalBackends: backendTypes(),
    navigationProviders: service
      .describe()
      .providers.map((p) => ({ id: p.id, extensions: p.extensions.map((e) => `${e.extension} (${e.languageId})`) })),
    tools,
    settings,
  };
}

/** What a masked environment value shows instead of the value. */
const MASKED_VALUE = '(value hidden)';

/**
 * A setting's value with environment values replaced by {@link MASKED_VALUE} (names and `null`
 * removals stay): `dsh.terminal.env` itself, and the `env` of each `dsh.lsp.servers` entry, if any.
 * Environment variables often hold tokens and passwords. Other settings are returned as they are.
 */
function maskEnvironments(key: string, value: unknown): unknown {
  const mask = (env: unknown) =>
    typeof env === 'object' && env !== null && !Array.isArray(env)
      ? Object.fromEntries(Object.entries(env).map(([name, v]) => [name, v === null ? null : MASKED_VALUE]))
      : env === undefined || env === null
        ? env
        : MASKED_VALUE;
  if (key === SETTING.terminalEnv) return mask(value);
  if (key === SETTING.lspServers && Array.isArray(value)) {
    return (value as unknown[]).map((entry) =>
      typeof entry === 'object' && entry !== null && 'env' in entry ? { ...entry, env: mask(entry.env) } : entry,
    );
  }
  return value;
}
