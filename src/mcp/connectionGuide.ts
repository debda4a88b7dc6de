/**
 * The text "DSH: Connect an Agent (MCP)" shows (src/vscode/mcp/connectCommand.ts): ready-to-paste
 * configuration for Claude Code, Codex CLI and Gemini CLI, and what an agent may do without
 * asking, listed from the tool declarations (src/tools/toolDeclarations.ts). Plain Node.
 */
import { SETTING } from '../common/ids';
import { toolsThatAlwaysAsk, toolsThatAskWhen, toolsThatNeverAsk } from '../tools/toolDeclarations';
import { ENDPOINT_ENV } from './discovery';

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

- Reads and navigation (${[...toolsThatNeverAsk(), ...toolsThatAskWhen().map((t) => t.name)].join(', ')}) run without
  asking, except ${toolsThatAskWhen()
    .map((t) => `${t.name} when ${t.when}`)
    .join(', ')}, which asks as it does in chat.
- ${toolsThatAlwaysAsk().join(', ')} (opening a session, sending input, signals, closing) ask you in VS Code first: Allow Once,
  Allow <client> Until the Window Closes (that connection), or Deny. \`${SETTING.mcpAutoApprove}\`
  lists clients you allow without asking (your choice and your risk: such a client runs commands
  as you without a prompt).
- Each connection sees only its own sessions; they appear in the terminal panel named after the
  client, with Take Over as for Copilot's. When the client disconnects, its sessions are closed.

Turn it off with the setting \`${SETTING.mcpEnabled}\` (false): the socket and the variable go.
`;
}
