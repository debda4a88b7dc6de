// Helpers for calling DSH Bridge's Language Model Tools the way an agent does: through
// `vscode.lm.invokeTool`, with no chat request behind it (toolInvocationToken undefined).
import * as vscode from 'vscode';
import { until } from '../wait';

/** The tools the installed extension contributes (package.json `contributes.languageModelTools`), in order. */
export function contributedTools(): { name: string; tags?: string[]; modelDescription: string; inputSchema: object }[] {
  const ext = vscode.extensions.getExtension('dsh.dsh-bridge');
  if (!ext) throw new Error('dsh.dsh-bridge is not installed in this extension host');
  return (ext.packageJSON as { contributes: { languageModelTools: ReturnType<typeof contributedTools> } }).contributes.languageModelTools;
}

/** The names of the terminal tools the extension contributes: those tagged "terminal" in package.json. */
export const TERMINAL_TOOLS: readonly string[] = contributedTools()
  .filter((t) => t.tags?.includes('terminal'))
  .map((t) => t.name);

/** A parsed tool result: the JSON object of the first text part and the text of the second, if any. */
export interface ToolCall<T = Record<string, unknown>> {
  json: T;
  text: string | undefined;
}

/**
 * Invokes tool `name` with `input` through `vscode.lm.invokeTool` and parses its result: the first
 * `LanguageModelTextPart` must hold a JSON object (returned as `json`); a second text part, when
 * present, is the terminal text (returned verbatim as `text`). Tool errors propagate as thrown.
 */
export async function invokeTool<T = Record<string, unknown>>(
  name: string,
  input: object,
  token?: vscode.CancellationToken,
): Promise<ToolCall<T>> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  const texts = result.content
    .filter((p): p is vscode.LanguageModelTextPart => typeof (p as { value?: unknown }).value === 'string')
    .map((p) => p.value);
  const [first, second] = texts;
  if (first === undefined) {
    throw new Error(`${name} returned no text part (${result.content.length} parts)`);
  }
  let json: T;
  try {
    json = JSON.parse(first) as T;
  } catch {
    throw new Error(`${name}: first text part is not JSON: ${first.slice(0, 200)}`);
  }
  return { json, text: second };
}

/**
 * Resolves once every tool in `names` is listed in `vscode.lm.tools` (the list fills
 * asynchronously after the extension host starts); rejects after `timeoutMs` naming the missing ones.
 */
export async function waitForTools(names: readonly string[], timeoutMs = 10_000): Promise<void> {
  const listed = () => new Set(vscode.lm.tools.map((t) => t.name));
  await until('the tools in vscode.lm.tools', () => names.every((n) => listed().has(n)), timeoutMs, 100).catch(() => {
    const now = listed();
    throw new Error(
      `tools not in vscode.lm.tools after ${timeoutMs} ms: ${names.filter((n) => !now.has(n)).join(', ')} (listed: ${[...now].join(', ') || 'none'})`,
    );
  });
}
