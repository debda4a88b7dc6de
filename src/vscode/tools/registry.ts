/**
 * The one list of the extension's tools: every tool's declaration (src/tools/toolDeclarations.ts:
 * name, whether it asks first, descriptions, input schema) with the factory that makes its
 * implementation for an owner. The Language Model Tools (`vscode.lm.registerTool`, acting for the
 * tools' owner) and every MCP connection (acting for its own owner, ../mcp/mcpSurface.ts) take
 * their tools from here, each behind its declaration's input validation (./declaredTool.ts).
 * package.json `contributes.languageModelTools` is made from the declarations (`npm run
 * gen:tools`); adding a tool is its declaration, its implementation and one line in
 * {@link TOOL_REGISTRY}.
 *
 * Tool sets (`contributes.languageModelToolSets`) are not contributed: VS Code (1.139) accepts them
 * only from an extension that enables the `contribLanguageModelToolSets` API proposal, which a
 * published extension cannot, and reports an error otherwise; 1.100 does not know the key. The
 * package.json tags `terminal` and `navigation` group the tools instead.
 */
import * as vscode from 'vscode';
import type { Owner } from '../../terminal/owner';
import type { ToolDeclaration } from '../../tools/declaration';
import { toolDeclaration } from '../../tools/toolDeclarations';
import { declaredTool } from './declaredTool';
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

/** One tool: its declaration and how to make its implementation for `owner`. */
export interface ToolEntry {
  readonly declaration: ToolDeclaration;
  create(deps: ToolDeps, owner: Owner): vscode.LanguageModelTool<never>;
}

/** The entry of the tool named `name` (a class's `toolName`), made by `create`. @throws Error when no declaration has that name. */
function entry(name: string, create: ToolEntry['create']): ToolEntry {
  const declaration = toolDeclaration(name);
  if (!declaration) throw new Error(`tools: ${name} has no declaration in src/tools/toolDeclarations.ts`);
  return { declaration, create };
}

/** A terminal tool class: constructed with the terminal context of the owner it acts for. */
const terminal = (T: { readonly toolName: string; new (ctx: TerminalToolContext): vscode.LanguageModelTool<never> }): ToolEntry =>
  entry(T.toolName, (deps, owner) => new T({ ...deps.terminal, owner }));

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
  entry(TmuxContextTool.toolName, (deps) => new TmuxContextTool(deps.tmux, deps.log)),
  entry(LspTool.toolName, (deps) => new LspTool(deps.navigation.service)),
  entry(SymbolsTool.toolName, (deps) => new SymbolsTool(deps.navigation.features)),
  entry(DiagnosticsTool.toolName, (deps) => new DiagnosticsTool(deps.navigation.features)),
  entry(CallHierarchyTool.toolName, (deps) => new CallHierarchyTool(deps.navigation.features)),
];

/**
 * A fresh instance of every tool acting for `owner`, by name. Each set keeps its own per-caller
 * state (confirmed receivers, read consents, tmux's "unchanged"), so one owner's consent is never
 * another's.
 */
export function createTools(deps: ToolDeps, owner: Owner): Map<string, ToolImpl> {
  return new Map(
    TOOL_REGISTRY.map((e) => [e.declaration.name, declaredTool(e.declaration, e.create(deps, owner) as vscode.LanguageModelTool<object>)]),
  );
}

/** A contributed tool as package.json declares it (the fields the extension reads). */
export interface ContributedTool {
  name: string;
  modelDescription: string;
  inputSchema?: Record<string, unknown>;
}

/** The tools package.json contributes (`contributes.languageModelTools`), in order (made from the declarations by `npm run gen:tools`). */
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
  const implemented = new Set(TOOL_REGISTRY.map((e) => e.declaration.name));
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
