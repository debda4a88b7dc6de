/**
 * One auto-approval judgement of a command line (plain Node, no `vscode` import): the line split
 * into its sub-commands (commandLine.ts) and judged against the rules (decision.ts). This is the
 * job the approval worker thread runs (approvalWorker.ts); the unit tests call it directly.
 *
 * A sub-command whose program word the session's shell expands as an alias is judged as the shell
 * runs it: the alias's text followed by the rest of the sub-command, parsed and judged as a line of
 * its own, without that alias (bash does not expand an alias again inside its own text; bash(1),
 * ALIASES). `ls -l` under `alias ls='ls --color=auto'` is judged as `ls --color=auto -l`.
 */
import { analyzeCommandLine } from './commandLine';
import { type AliasJudge, decideLine, quoted } from './decision';
import { type CompiledRule, compileRule } from './rules';
import type { BashParse } from './syntaxTree';
import type { ApprovalContext, LineDecision, SubCommand, SubCommandVerdict } from './types';

/** Aliases expanded in one judgement at most (an alias may expand to several that expand in turn); past it the alias's command is not approved. */
export const MAX_ALIAS_EXPANSIONS = 64;

/** The decision for `line` under `context` (its rules as settings give them, compiled here). */
export function approveLine(line: string, context: ApprovalContext, parse: BashParse): LineDecision {
  const rules = context.rules.map(compileRule);
  return decide(line, rules, context, parse, { left: MAX_ALIAS_EXPANSIONS });
}

function decide(
  line: string,
  rules: readonly CompiledRule[],
  context: ApprovalContext,
  parse: BashParse,
  budget: { left: number },
): LineDecision {
  const judgeAlias: AliasJudge = (sub, value) => judgeExpansion(sub, value, rules, context, parse, budget);
  return decideLine(line, analyzeCommandLine(line, parse), rules, context, judgeAlias);
}

/** The verdict on `sub`, whose program is an alias for `value`: the decision on the line it expands to. */
function judgeExpansion(
  sub: SubCommand,
  value: string,
  rules: readonly CompiledRule[],
  context: ApprovalContext,
  parse: BashParse,
  budget: { left: number },
): SubCommandVerdict {
  const alias = `\`${sub.program}\` is an alias for ${quoted(value)}`;
  const unmatched = (why: string): SubCommandVerdict => ({ result: 'unmatched', cause: 'alias', why: `${alias}${why}` });
  if (budget.left <= 0) return unmatched(`, and the line expands more than ${MAX_ALIAS_EXPANSIONS} aliases`);
  budget.left--;
  const rest = sub.text.slice(sub.program.length);
  // An alias whose text ends in a blank makes the shell expand the next word as an alias too.
  const next = /^\s*(\S+)/.exec(rest)?.[1];
  const aliases = { ...context.aliases };
  delete aliases[sub.program];
  if (/[ \t]$/.test(value) && next !== undefined && (Object.hasOwn(aliases, next) || context.shellNames.includes(next))) {
    return unmatched(`, which ends in a blank, so the shell expands \`${next}\` as its alias or function too`);
  }
  const decision = decide(`${value}${rest}`, rules, { ...context, aliases }, parse, budget);
  if (decision.approved) {
    const rule = decision.rules[0];
    return rule ? { result: 'approved', rule } : unmatched(', which holds no command for a rule to approve');
  }
  const denied = decision.subCommands.find((s) => s.verdict.result === 'denied');
  if (denied?.verdict.result === 'denied')
    return { result: 'denied', rule: denied.verdict.rule, why: `${alias}, and the rule denies ${quoted(denied.subCommand.text)}` };
  return unmatched(`: ${decision.reasons.join('; ')}`);
}

/** The decision for a line that could not be judged: not approved, with `reason`. */
export function unjudged(reason: string): LineDecision {
  return { approved: false, rules: [], reasons: [reason], subCommands: [], fileWrites: [], blockers: [] };
}
