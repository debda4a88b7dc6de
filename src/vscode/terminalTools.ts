/**
 * Where the navigation tools still import the shared tool helpers from; the terminal tools live in
 * ./tools/terminal/, the shared helpers in ./tools/.
 */
import * as vscode from 'vscode';
import { codeFence } from './tools/markdownText';

export { TOOL_OUTPUT_CAP_BYTES, toolResult } from './tools/toolResult';

/** {@link codeFence} as a `vscode.MarkdownString`. */
export function codeBlock(code: string, language = 'sh'): vscode.MarkdownString {
  return new vscode.MarkdownString(codeFence(code, language));
}
