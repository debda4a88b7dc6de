/**
 * Every tool's declaration (./declaration.ts), in the order package.json lists them: the terminal
 * tools, tmux, then navigation. Adding a tool is its declaration here, its implementation and one
 * line in src/vscode/tools/registry.ts; `npm run gen:tools` writes package.json from this list.
 * Plain Node, no `vscode` import.
 */
import type { ToolDeclaration } from './declaration';
import { CALL_HIERARCHY, DIAGNOSTICS, LSP, SYMBOLS } from './declarations/navigation';
import {
  RUN,
  TERMINAL_CLOSE,
  TERMINAL_HISTORY,
  TERMINAL_LIST,
  TERMINAL_OPEN,
  TERMINAL_OUTPUT,
  TERMINAL_READ,
  TERMINAL_SEND,
  TERMINAL_SIGNAL,
  TERMINAL_WAIT,
} from './declarations/terminal';
import { TMUX_CONTEXT } from './declarations/tmux';

export const TOOL_DECLARATIONS: readonly ToolDeclaration[] = Object.freeze([
  RUN,
  TERMINAL_OPEN,
  TERMINAL_SEND,
  TERMINAL_READ,
  TERMINAL_HISTORY,
  TERMINAL_OUTPUT,
  TERMINAL_WAIT,
  TERMINAL_LIST,
  TERMINAL_CLOSE,
  TERMINAL_SIGNAL,
  TMUX_CONTEXT,
  LSP,
  SYMBOLS,
  DIAGNOSTICS,
  CALL_HIERARCHY,
]);

/** The declaration named `name`, if any. */
export function toolDeclaration(name: string): ToolDeclaration | undefined {
  return TOOL_DECLARATIONS.find((d) => d.name === name);
}

/** The names of the tools that never ask the person first (reads and navigation), in order. */
export function toolsThatNeverAsk(): string[] {
  return TOOL_DECLARATIONS.filter((d) => d.asksFirst === 'never').map((d) => d.name);
}

/** The names of the tools that ask only in a case (`when`), with that case, in order. */
export function toolsThatAskWhen(): { name: string; when: string }[] {
  return TOOL_DECLARATIONS.flatMap((d) => (typeof d.asksFirst === 'object' ? [{ name: d.name, when: d.asksFirst.when }] : []));
}

/** The names of the tools that always ask the person first (side effects), in order. */
export function toolsThatAlwaysAsk(): string[] {
  return TOOL_DECLARATIONS.filter((d) => d.asksFirst === 'always').map((d) => d.name);
}
