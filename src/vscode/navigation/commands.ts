/**
 * The navigation palette commands: "DSH: Show What the Agent Sees at Cursor" (every navigation
 * tool's answer at the cursor, through `vscode.lm.invokeTool`) and "DSH: Show Effective
 * Configuration"; results in read-only views beside the editor.
 */
import * as vscode from 'vscode';
import { COMMAND } from '../../common/ids';
import { characterToModelColumn } from '../../lsp/position';
import { LSP_OPERATIONS } from '../../lsp/types';
import { effectiveConfiguration } from '../effectiveConfiguration';
import { CallHierarchyTool } from '../tools/navigation/callHierarchyTool';
import { DiagnosticsTool } from '../tools/navigation/diagnosticsTool';
import { SymbolsTool } from '../tools/navigation/symbolsTool';
import { LspTool } from '../tools/navigation/lspTool';
import type { NavigationContext } from './navigationContext';
import { ReadOnlyViews, VIEW_SCHEME } from '../readOnlyViews';
import { errorMessage } from '../../common/errorMessage';

/** What "Show Effective Configuration" reads besides the navigation seam. */
export interface ConfigurationSources {
  /** The extension's context (its package.json: contributed tools and settings). */
  readonly extension: vscode.ExtensionContext;
  /** The registered terminal backends. */
  readonly backendTypes: () => string[];
  /** The configured language servers and the problems of their setting. */
  readonly languageServers: () => { readonly servers: readonly unknown[]; readonly errors: readonly string[] };
  /** The agent sandbox policy a session opened now runs under. */
  readonly agentSandbox?: () => unknown;
}

/** Register the two palette commands; unregistered with the returned Disposable. */
export function registerNavigationCommands(nav: NavigationContext, sources: ConfigurationSources): vscode.Disposable {
  const views = new ReadOnlyViews();
  return vscode.Disposable.from(
    views,
    vscode.commands.registerCommand(COMMAND.showAgentViewAtCursor, async () => {
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
        ...LSP_OPERATIONS.map((operation): [string, string, object] => [
          operation,
          LspTool.toolName,
          { operation, filePath, line, column },
        ]),
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
          answers[key] = { error: errorMessage(e) };
          sections.push(`// ${title}: error\n${JSON.stringify(answers[key], null, 2)}`);
        }
      }
      await views.show('agent-view.jsonc', sections.join('\n\n') + '\n');
      return answers;
    }),
    vscode.commands.registerCommand(COMMAND.showEffectiveConfiguration, async () => {
      const config = {
        ...effectiveConfiguration(sources.extension, nav.service, sources.backendTypes),
        languageServers: sources.languageServers(),
        agentSandbox: sources.agentSandbox?.(),
      };
      await views.show('effective-configuration.jsonc', `// DSH Bridge: effective configuration\n${JSON.stringify(config, null, 2)}\n`);
      return config;
    }),
  );
}
