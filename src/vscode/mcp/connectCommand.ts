/**
 * "DSH: Connect an Agent (MCP)": turns the window's MCP endpoint on (after asking, when it is
 * off) and shows ready-to-paste configuration for Claude Code, Codex CLI and Gemini CLI. The
 * configurations name the stdio bridge only; the window's socket and secret reach the bridge
 * through `DSH_BRIDGE_MCP`, which the extension sets in the window's integrated terminals.
 */
import * as vscode from 'vscode';
import { COMMAND, SETTING } from '../../common/ids';
import { ENDPOINT_ENV } from '../../mcp/discovery';
import { McpEndpoint, McpState } from './endpoint';
import { ReadOnlyViews } from '../readOnlyViews';

/** The URI scheme of the guide's view. */
const VIEW_SCHEME = 'dsh-mcp';

/** The configuration text the command shows, for the bridge at `bridge`. */
export function connectionGuide(bridge: string): string {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const toml = (s: string) => JSON.stringify(s); // a TOML basic string is a JSON string for these paths
  return `# Connect an agent to this VS Code window (MCP)

DSH Bridge serves its tools (persistent terminals, code navigation) over MCP from this window.
Start your agent in one of this window's integrated terminals, opened after the endpoint was turned
on: the terminal holds \`${ENDPOINT_ENV}\` (this window's socket and secret), which the bridge reads.
A terminal from before (or from before a window reload) has no or a stale value: open a new one.

The bridge: \`${bridge}\` (its path changes when the extension updates: run this command again then).
\`node ${bridge} --help\` explains the rest.

## Claude Code

\`\`\`sh
claude mcp add --scope user dsh-bridge -- node ${JSON.stringify(bridge)}
\`\`\`

or in a project's \`.mcp.json\`:

\`\`\`json
${json({ mcpServers: { 'dsh-bridge': { command: 'node', args: [bridge], env: { [ENDPOINT_ENV]: `\${${ENDPOINT_ENV}}` } } } })}
\`\`\`

## Codex CLI

In \`~/.codex/config.toml\` (\`env_vars\` forwards the variable from the terminal):

\`\`\`toml
[mcp_servers.dsh-bridge]
command = "node"
args = [${toml(bridge)}]
env_vars = [${toml(ENDPOINT_ENV)}]
\`\`\`

## Gemini CLI

In \`~/.gemini/settings.json\`:

\`\`\`json
${json({ mcpServers: { 'dsh-bridge': { command: 'node', args: [bridge], env: { [ENDPOINT_ENV]: `$${ENDPOINT_ENV}` } } } })}
\`\`\`

## What an agent may do

- Reads and navigation (dsh_terminal_read, dsh_terminal_list, dsh_terminal_output, dsh_lsp,
  dsh_symbols, dsh_diagnostics, dsh_call_hierarchy, dsh_tmux_context) run without asking, except
  reading a file outside the workspace, which asks as it does in chat.
- Opening a session, sending input, signals and closing ask you in VS Code first: Allow Once,
  Allow <client> Until the Window Closes (that connection), or Deny. \`${SETTING.mcpAutoApprove}\`
  lists clients you allow without asking (your choice and your risk: such a client runs commands
  as you without a prompt).
- Each connection sees only its own sessions; they appear in the terminal panel named after the
  client, with Take Over as for Copilot's. When the client disconnects, its sessions are closed.

Turn it off with the setting \`${SETTING.mcpEnabled}\` (false): the socket and the variable go.
`;
}

/** Registers the command; it resolves to the endpoint's state (never the secret). */
export function registerConnectCommand(endpoint: McpEndpoint): vscode.Disposable {
  const views = new ReadOnlyViews(VIEW_SCHEME);
  return vscode.Disposable.from(
    views,
    vscode.commands.registerCommand(COMMAND.connectAgent, async (): Promise<McpState> => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showErrorMessage('DSH Bridge: the MCP endpoint is never on in Restricted Mode (an agent could run code from this workspace). Trust the workspace first.');
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
        .showInformationMessage(`DSH Bridge: MCP is on. Start your agent in a new integrated terminal of this window.`, `Copy ${ENDPOINT_ENV} for Another Client`)
        .then(async (copy) => {
          const value = endpoint.connectionValue;
          if (copy && value) {
            await vscode.env.clipboard.writeText(`${ENDPOINT_ENV}=${value}`);
            void vscode.window.showInformationMessage(`Copied. It holds this window's secret: keep it private; it stops working when the window closes or reloads.`);
          }
        });
      return state;
    }),
  );
}
