/**
 * One auto-approval judgement of a command line (plain Node, no `vscode` import): the line split
 * into its sub-commands (commandLine.ts) and judged against the rules (decision.ts). This is the
 * job the approval worker thread runs (approvalWorker.ts); the unit tests call it directly.
 */
import { analyzeCommandLine } from './commandLine';
import { decideLine } from './decision';
import { compileRule } from './rules';
import type { BashParse } from './syntaxTree';
import type { ApprovalContext, LineDecision } from './types';

/** The decision for `line` under `context` (its rules as settings give them, compiled here). */
export function approveLine(line: string, context: ApprovalContext, parse: BashParse): LineDecision {
  const rules = context.rules.map(compileRule);
  return decideLine(line, analyzeCommandLine(line, parse), rules, context);
}

/** The decision for a line that could not be judged: not approved, with `reason`. */
export function unjudged(reason: string): LineDecision {
  return { approved: false, rules: [], reasons: [reason], subCommands: [], fileWrites: [], blockers: [] };
}
