/** What every terminal tool needs from the extension, and the folder a new agent shell opens in. */
import * as vscode from 'vscode';
import { sandboxSummary, type SandboxPolicy, type SandboxSummary } from '../../../terminal/sandbox/policy';
import type { TerminalService } from '../../../terminal/service';
import type { Owner } from '../../../terminal/owner';
import type { ApprovalThread } from '../../../approval/approvalThread';
import type { ShellChoice } from '../../../terminal/shellChoice';

/** Why no terminal backend is available on this machine, or undefined when one is. */
export type BackendAvailability = () => string | undefined;

/** What every terminal tool needs: the service, the tools' owner, and backend availability. */
export interface TerminalToolContext {
  service: TerminalService;
  owner: Owner;
  unavailable: BackendAvailability;
  /** The agent sandbox policy a session opened now runs under (whether it may run outside); absent = no sandbox. */
  sandboxPolicy?: () => SandboxPolicy;
  /** Judges command lines against the person's terminal auto-approve rules; absent: no rule approves. */
  approval?: ApprovalThread;
  /** The shell a session opened now gets from the person's settings (shellChoice.ts); absent: bash. */
  shellChoice?: () => ShellChoice;
}

/** The agent sandbox a session opened now would run in, for a confirmation; undefined without a policy. */
export function newSessionSandbox(ctx: TerminalToolContext): SandboxSummary | undefined {
  return ctx.sandboxPolicy ? sandboxSummary(ctx.sandboxPolicy()) : undefined;
}

/** The first workspace folder's path, the natural place for an agent's shell; else undefined. */
export function defaultCwd(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}
