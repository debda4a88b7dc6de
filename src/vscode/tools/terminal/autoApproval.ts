/**
 * Whether an agent's send runs without asking the person, and why (see docs/auto-approve.md):
 * VS Code's terminal auto-approve rules judge a command line typed at the shell's prompt
 * (src/approval/, in a worker thread), then the agent sandbox (`chat.agent.sandbox.allowAutoApprove`
 * for a session inside it), then the person's global switch (`chat.tools.global.autoApprove`).
 * The most specific wins: rule, sandbox, global. Input to a running program, keys, and a line the
 * rules do not approve go to the person (or an MCP client's standing allowance).
 */
import type { ApprovalThread } from '../../../approval/approvalThread';
import type { LineDecision } from '../../../approval/types';
import type { SendInput } from '../../../terminal/input/input';
import type { SandboxSummary } from '../../../terminal/sandbox/policy';
import type { SendTarget } from '../../../terminal/service';
import { escapeMarkdown } from '../markdownText';
import {
  AUTO_APPROVE_SETTING,
  readAutoApproveSettings,
  workspaceFolderPaths,
  workspaceNpmScripts,
} from '../../terminal/autoApproveSettings';

/** Who let a send run, as every send result reports it (`approval`). */
export type Approval =
  | { by: 'rule'; rules: { key: string; source: string; matchCommandLine?: true }[] }
  | { by: 'sandbox' }
  | { by: 'global' }
  | { by: 'client' }
  | { by: 'person' };

/** Who let a send run, as the panel's status line for its command names it (`approved by …`). */
export function approvalLabel(approval: Approval): string {
  switch (approval.by) {
    case 'rule':
      return `${approval.rules.length === 1 ? 'rule' : 'rules'} ${approval.rules.map((r) => JSON.stringify(r.key)).join(', ')}`;
    case 'sandbox':
      return 'the agent sandbox (chat.agent.sandbox.allowAutoApprove)';
    case 'global':
      return 'chat.tools.global.autoApprove';
    case 'client':
      return "the MCP client's standing allowance";
    case 'person':
      return 'you';
  }
}

/** The judgement of one send before it is confirmed. */
export interface SendJudgement {
  /** Set when the send runs without asking, with who let it. */
  approval?: Approval;
  /** Why the rules did not approve it, as a markdown paragraph for the confirmation. */
  note: string;
  /** The rules' decision on the line, when it was judged. */
  decision?: LineDecision;
}

/** Where a send goes, as the judgement needs it: an open session's target, or a new session's shell. */
export type JudgedTarget = { kind: 'session'; target: SendTarget } | { kind: 'new-session'; cwd: string | undefined };

/**
 * The judgement of `typed` sent to `where` by a session running under `sandbox` (see the module
 * comment). `thread` judges lines; without it no rule approves.
 */
export async function judgeSend(
  thread: ApprovalThread | undefined,
  typed: SendInput,
  where: JudgedTarget,
  sandbox: SandboxSummary | undefined,
): Promise<SendJudgement> {
  const settings = readAutoApproveSettings();
  let note: string;
  let decision: LineDecision | undefined;
  const why = whyNoRules(typed, where, settings.enabled, settings.registered, thread !== undefined);
  if (why) note = why;
  else {
    const target = (where as { target: SendTarget }).target;
    const names = target.shellNames?.kind === 'known' ? target.shellNames : undefined;
    decision = await thread!.decide((typed as { text: string }).text, {
      rules: settings.rules,
      cwd: target.cwdIsCurrent ? target.cwd : undefined,
      workspaceFolders: workspaceFolderPaths(),
      blockFileWrites: settings.blockFileWrites,
      npmScripts: settings.npmScripts ? await workspaceNpmScripts() : [],
      // Functions, and aliases whose text is not known, hide their command; an alias with its text is judged as it expands.
      shellNames: names ? [...names.functions, ...names.aliases.filter((a) => !Object.hasOwn(names.aliasValues, a))] : [],
      aliases: names?.aliasValues ?? {},
      globalAliases: names?.globalAliases ?? [],
      suffixAliases: names?.suffixAliases ?? [],
    });
    if (decision.approved) {
      return {
        approval: {
          by: 'rule',
          rules: decision.rules.map((r) => ({
            key: r.key,
            source: r.source,
            ...(r.matchCommandLine ? { matchCommandLine: true as const } : {}),
          })),
        },
        note: '',
        decision,
      };
    }
    note = `Not auto approved by your terminal rules (${AUTO_APPROVE_SETTING.rules}): ${decision.reasons.map(escapeMarkdown).join('; ')}.`;
  }
  if (sandbox?.on && !sandbox.outsideApproved && settings.sandbox) return { approval: { by: 'sandbox' }, note, decision };
  if (settings.global) return { approval: { by: 'global' }, note, decision };
  return { note, decision };
}

/** Why no rule can approve this send (a clause for the confirmation), or undefined when the rules judge it. */
function whyNoRules(typed: SendInput, where: JudgedTarget, enabled: boolean, registered: boolean, canJudge: boolean): string | undefined {
  if (typed.kind === 'keys') return 'Keys are never auto approved by terminal rules.';
  if (!enabled) {
    return registered
      ? `Terminal rules do not auto approve: ${AUTO_APPROVE_SETTING.enable} is off.`
      : `Terminal rules do not auto approve: this VS Code has no terminal auto-approve settings (${AUTO_APPROVE_SETTING.enable}).`;
  }
  if (!canJudge) return 'Terminal rules cannot judge commands here (the approval thread is not available).';
  if (where.kind === 'new-session')
    return "Not auto approved: this opens a new session, whose shell's aliases and functions are not known before it starts.";
  const t = where.target;
  const r = t.receiver;
  if (r.kind !== 'shell-prompt')
    return `Not auto approved: the input goes to ${r.kind === 'program' ? 'a running program' : r.kind === 'shell-continuation' ? 'an unfinished command at the continuation prompt' : 'no shell'}, not to the shell at its prompt, and no command rule approves input.`;
  if (r.lineKeys && (r.lineKeys.keys.length > 0 || r.lineKeys.more > 0 || r.lineKeys.foreign))
    return 'Not auto approved: the command line already holds keys pressed earlier.';
  // The traps and hooks the person's startup files set (a bash-preexec or starship DEBUG trap, a
  // PROMPT_COMMAND entry) are their own configuration; one set, changed or hidden since is not.
  if (t.traps && !t.trapsFromStartup)
    return 'Not auto approved: a command set traps or hooks after the session started, or the shell no longer reports them, which may run with the command.';
  if (t.shellNames?.kind !== 'known')
    return "Not auto approved: the shell's aliases and functions are not known (it no longer reports them).";
  return undefined;
}
