/**
 * "DSH: Connect an Agent (MCP)": turns the window's MCP endpoint on (after asking, when it is
 * off) and shows ready-to-paste configuration for Claude Code, Codex CLI and Gemini CLI. The
 * configurations name the stdio bridge only; the window's socket and secret reach the bridge
 * through `DSH_BRIDGE_MCP`, which the extension sets in the window's integrated terminals.
 */
import * as vscode from 'vscode';
import { COMMAND, SETTING } from '../../common/ids';
import { ENDPOINT_ENV } from '../../mcp/discovery';
import { connectionGuide } from '../../mcp/connectionGuide';
import { McpEndpoint, McpState } from './endpoint';
import { ReadOnlyViews } from '../readOnlyViews';

/** The URI scheme of the guide's view. */
const VIEW_SCHEME = 'dsh-mcp';

/** Registers the command; it resolves to the endpoint's state (never the secret). */
export function registerConnectCommand(endpoint: McpEndpoint): vscode.Disposable {
  const views = new ReadOnlyViews(VIEW_SCHEME);
  return vscode.Disposable.from(
    views,
    vscode.commands.registerCommand(COMMAND.connectAgent, async (): Promise<McpState> => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showErrorMessage(
          'DSH Bridge: the MCP endpoint is never on in Restricted Mode (an agent could run code from this workspace). Trust the workspace first.',
        );
        return endpoint.state;
      }
      if (endpoint.state.state !== 'listening') {
        if (vscode.workspace.getConfiguration().get<boolean>(SETTING.mcpEnabled) !== true) {
          let pick: string | undefined;
          try {
            pick = await vscode.window.showWarningMessage(
              'Let agents outside Copilot use DSH Bridge from this window (MCP)?',
              {
                modal: true,
                detail:
                  `Turns on ${SETTING.mcpEnabled} in your user settings. Programs of your user on this machine that hold this window's secret ` +
                  '(agents started in its integrated terminals) can then list and call the tools; side effects ask you first.',
              },
              'Turn On',
            );
          } catch {
            pick = undefined; // VS Code refused to show the dialog: nothing changes
          }
          if (pick !== 'Turn On') return endpoint.state;
          await vscode.workspace.getConfiguration().update(SETTING.mcpEnabled, true, vscode.ConfigurationTarget.Global);
        }
        await endpoint.apply();
      }
      const state = endpoint.state;
      if (state.state === 'failed') {
        void vscode.window.showErrorMessage(`DSH Bridge: the MCP endpoint could not start: ${state.error}`);
        return state;
      }
      if (state.state !== 'listening') return state;
      await views.show('connect-an-agent.md', connectionGuide(endpoint.bridgePath), { language: 'markdown', beside: false });
      void vscode.window
        .showInformationMessage(
          `DSH Bridge: MCP is on. Start your agent in a new integrated terminal of this window.`,
          `Copy ${ENDPOINT_ENV} for Another Client`,
        )
        .then(async (copy) => {
          const value = endpoint.connectionValue;
          if (copy && value) {
            await vscode.env.clipboard.writeText(`${ENDPOINT_ENV}=${value}`);
            void vscode.window.showInformationMessage(
              `Copied. It holds this window's secret: keep it private; it stops working when the window closes or reloads.`,
            );
          }
        });
      return state;
    }),
  );
}
