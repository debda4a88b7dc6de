/** The declaration of the tmux tool (../declaration.ts). Plain Node. */
import { z } from 'zod';
import { declareTool } from '../declaration';

/** `dsh_tmux_context`. */
export const TMUX_CONTEXT = declareTool({
  name: 'dsh_tmux_context',
  displayName: 'tmux Context',
  tags: ['dsh', 'terminal'],
  asksFirst: 'never',
  userDescription: 'Tell the agent whether VS Code runs in a tmux pane, and which one.',
  modelDescription:
    'Tells whether the VS Code extension host really runs inside a tmux pane, and which one. It checks the pane named by the inherited TMUX_PANE on the server named by TMUX and accepts it only if that pane\'s tty is the host\'s own controlling terminal, so inherited variables alone never count. Returns JSON: {"inPane": true, "session", "windowIndex", "windowName", "paneIndex", "paneId", "paneTty", "paneCommand", "unchanged"} or {"inPane": false, "reason", "unchanged"}. "unchanged": true means the answer equals the previous one this tool returned in this VS Code session. Use it before running or suggesting tmux commands that target the user\'s pane or session. Do not use it to find out whether an agent terminal session is in tmux: agent sessions never are, and TMUX/TMUX_PANE are removed from them. Takes no input, has no side effects.',
  input: z.strictObject({}),
});
