/**
 * The terminal Language Model Tools, one class per file in this folder, created and registered
 * here. The same instances serve MCP (one set per connection, see ../../mcp.ts). Results: a first
 * text part holding a JSON object, then the terminal text verbatim as a second part where there is
 * any (../toolResult.ts).
 */
import * as vscode from 'vscode';
import { CloseTool } from './closeTool';
import type { TerminalToolContext } from './context';
import { HistoryTool } from './historyTool';
import { ListTool } from './listTool';
import { OpenTool } from './openTool';
import { OutputTool } from './outputTool';
import { ReadTool } from './readTool';
import { RunTool } from './runTool';
import { SendTool } from './sendTool';
import { SignalTool } from './signalTool';
import { WaitTool } from './waitTool';

/** Every terminal tool class; their names are TERMINAL_TOOLS of src/common/ids.ts. */
const TOOL_CLASSES: Array<{ toolName: string; new (ctx: TerminalToolContext): vscode.LanguageModelTool<object> }> = [
  OpenTool, SendTool, ReadTool, HistoryTool, ListTool, CloseTool, SignalTool, OutputTool, WaitTool, RunTool,
];

/**
 * One instance of every terminal tool acting for `ctx.owner`, by tool name: the Language Model
 * Tools use the tools' owner, each MCP connection its own.
 */
export function createTerminalTools(ctx: TerminalToolContext): Map<string, vscode.LanguageModelTool<object>> {
  return new Map(TOOL_CLASSES.map((T) => [T.toolName, new T(ctx)]));
}

/** Registers the terminal tools as Language Model Tools; disposed with the returned Disposable. */
export function registerTerminalTools(ctx: TerminalToolContext): vscode.Disposable {
  return vscode.Disposable.from(...[...createTerminalTools(ctx)].map(([name, tool]) => vscode.lm.registerTool(name, tool)));
}
