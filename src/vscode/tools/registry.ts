/**
 * The one list of the extension's tools: every tool name with the factory that makes its
 * implementation for an owner. The Language Model Tools (`vscode.lm.registerTool`, acting for the
 * tools' owner) and every MCP connection (acting for its own owner, ../mcp/mcpSurface.ts) take their tools
 * from here. A tool's name lives in its class (`static toolName`) and in package.json
 * `contributes.languageModelTools`, which holds its schema and descriptions; adding a tool is its
 * file, its package.json entry and one line in {@link TOOL_REGISTRY}.
 *
 * Tool sets (`contributes.languageModelToolSets`) are not contributed: VS Code (1.139) accepts them
 * only from an extension that enables the `contribLanguageModelToolSets` API proposal, which a
 * published extension cannot, and reports an error otherwise; 1.100 does not know the key. The
 * package.json tags `terminal` and `navigation` group the tools instead.
 */
import * as vscode from 'vscode';
import type { Owner } from '../../terminal/owner';
import type { TmuxDetection } from '../../tmux/detect';
import { CallHierarchyTool } from './navigation/callHierarchyTool';
import { DiagnosticsTool } from './navigation/diagnosticsTool';
import { SymbolsTool } from './navigation/symbolsTool';
import { LspTool } from './navigation/lspTool';
import type { NavigationContext } from '../navigation/navigationContext';
import { TmuxContextTool } from './tmux/contextTool';
import { CloseTool } from './terminal/closeTool';
import type { TerminalToolContext } from './terminal/context';
import { HistoryTool } from './terminal/historyTool';
import { ListTool } from './terminal/listTool';
import { OpenTool } from './terminal/openTool';
import { OutputTool } from './terminal/outputTool';
import { ReadTool } from './terminal/readTool';
import { RunTool } from './terminal/runTool';
import { SendTool } from './terminal/sendTool';
import { SignalTool } from './terminal/signalTool';
import { WaitTool } from './terminal/waitTool';

/** A tool implementation as both surfaces call it. */
export type ToolImpl = vscode.LanguageModelTool<object>;

/** What the tools are made from: the composition root's services. */
export interface ToolDeps {
  /** The terminal tools' context; its `owner` is replaced by the owner a set of tools acts for. */
  terminal: TerminalToolContext;
  /** The navigation seam and the feature registry beside it. */
  navigation: NavigationContext;
  /** Where the extension host runs in tmux (one detection per call). */
  tmux: () => Promise<TmuxDetection>;
  log: vscode.LogOutputChannel;
}

/** One tool: its name (a contributed `languageModelTools[].name`) and how to make it for `owner`. */
export interface ToolEntry {
  readonly name: string;
  create(deps: ToolDeps, owner: Owner): ToolImpl;
}

/** A terminal tool class: constructed with the terminal context of the owner it acts for. */
const terminal = (T: { readonly toolName: string; new (ctx: TerminalToolContext): ToolImpl }): ToolEntry => ({
  name: T.toolName,
  create: (deps, owner) => new T({ ...deps.terminal, owner }),
});

/** Every tool, in the order the terminal tools, tmux and navigation are listed in package.json. */
export const TOOL_REGISTRY: readonly ToolEntry[] = [
  terminal(RunTool),
  terminal(OpenTool),
  terminal(SendTool),
  terminal(ReadTool),
  terminal(HistoryTool),
  terminal(OutputTool),
  terminal(WaitTool),
  terminal(ListTool),
  terminal(CloseTool),
  terminal(SignalTool),
  { name: TmuxContextTool.toolName, create: (deps) => new TmuxContextTool(deps.tmux, deps.log) },
  { name: LspTool.toolName, create: (deps) => new LspTool(deps.navigation.service) },
  { name: SymbolsTool.toolName, create: (deps) => new SymbolsTool(deps.navigation.features) },
  { name: DiagnosticsTool.toolName, create: (deps) => new DiagnosticsTool(deps.navigation.features) },
  { name: CallHierarchyTool.toolName, create: (deps) => new CallHierarchyTool(deps.navigation.features) },
];

/**
 * A fresh instance of every tool acting for `owner`, by name. Each set keeps its own per-caller
 * state (confirmed receivers, read consents, tmux's "unchanged"), so one owner's consent is never
 * another's.
 */
export function createTools(deps: ToolDeps, owner: Owner): Map<string, ToolImpl> {
  return new Map(TOOL_REGISTRY.map((entry) => [entry.name, entry.create(deps, owner)]));
}

/** A contributed tool as package.json declares it (the fields the extension reads). */
export interface ContributedTool {
  name: string;
  modelDescription: string;
  inputSchema?: Record<string, unknown>;
}

/** The tools package.json contributes (`contributes.languageModelTools`), in order: the one definition of names, schemas and descriptions. */
export function contributedTools(context: vscode.ExtensionContext): ContributedTool[] {
  const pkg = context.extension.packageJSON as { contributes?: { languageModelTools?: ContributedTool[] } };
  return pkg.contributes?.languageModelTools ?? [];
}

/**
 * Registers every tool as a Language Model Tool acting for `deps.terminal.owner`; unregistered
 * with the returned Disposable. A contributed tool without an entry, or an entry not contributed,
 * is logged as an error (VS Code refuses to register a tool package.json does not declare).
 */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): vscode.Disposable {
  const contributed = new Set(contributedTools(context).map((t) => t.name));
  const implemented = new Set(TOOL_REGISTRY.map((e) => e.name));
  const missing = [...contributed].filter((n) => !implemented.has(n));
  if (missing.length > 0) deps.log.error(`tools: contributed without an implementation: ${missing.join(', ')}`);
  const registrations: vscode.Disposable[] = [];
  for (const [name, tool] of createTools(deps, deps.terminal.owner)) {
    if (!contributed.has(name)) {
      deps.log.error(`tools: ${name} is implemented but not contributed in package.json; not registered`);
      continue;
    }
    registrations.push(vscode.lm.registerTool(name, tool));
  }
  return vscode.Disposable.from(...registrations);
}
