import * as vscode from 'vscode';
import type { SandboxSummary } from '../../../terminal/sandbox/policy';
import type { SendResult } from '../../../terminal/types';
import { toolResult } from '../toolResult';
import type { Approval } from './autoApproval';
import { listeningFields } from './processLists';

/**
 * The result of the tools that send or wait (`dsh_terminal_send`, `dsh_run`, `dsh_terminal_wait`):
 * the JSON fields of `dsh_terminal_send` (with the session's `sandbox` and who let the send run,
 * `approval`, when given), then the output as text.
 */
export function sendResult(
  sessionId: string,
  r: SendResult,
  sandbox?: SandboxSummary,
  approval?: Approval,
): vscode.LanguageModelToolResult {
  const json: Record<string, unknown> = {
    sessionId,
    waitReason: r.waitReason,
    waiting: r.waiting,
    match: r.match,
    listened: r.listened,
    sessionStatus: r.sessionStatus,
    exitCode: r.exitCode,
    stopped: r.stopped,
    foreground: r.foreground,
    echoOff: r.echoOff,
    guidance: r.guidance,
    alternateScreen: r.alternateScreen,
    truncated: r.truncated,
    droppedBytes: r.truncated ? r.droppedBytes : undefined,
    renderLimited: r.renderLimited,
    hint: r.truncated
      ? 'the viewport holds only the newest output; page older output with dsh_terminal_read (offset counts lines back from the newest)'
      : undefined,
    probe: r.probe,
    durationMs: r.durationMs,
    sandbox,
    approval,
    command: r.command,
    ...listeningFields(r.listening),
  };
  return toolResult(json, r.output);
}
