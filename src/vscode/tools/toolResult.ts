/**
 * The result every DSH Bridge tool returns: a first text part holding a JSON object, then the
 * terminal (or other) text verbatim as a second part where there is any, within one byte cap.
 */
import * as vscode from 'vscode';
import { TOOL_OUTPUT_CAP_BYTES } from '../../common/toolResultCap';
import { tailByBytes } from '../../terminal/output/byteTail';

export { TOOL_OUTPUT_CAP_BYTES };

/**
 * A tool result: JSON first, then text (if any) as its own part. Text over TOOL_OUTPUT_CAP_BYTES
 * keeps its newest part and the JSON says `truncated` and how much went (`toolCapDroppedBytes`).
 */
export function toolResult(json: object, text?: string): vscode.LanguageModelToolResult {
  let body = text;
  let head: object = json;
  if (body && Buffer.byteLength(body) > TOOL_OUTPUT_CAP_BYTES) {
    // The tool layer's own bound, whatever the terminal settings allow: the newest part is kept.
    const kept = tailByBytes(body, TOOL_OUTPUT_CAP_BYTES);
    body = kept.text;
    head = { ...json, truncated: true, toolCapDroppedBytes: kept.dropped };
  }
  const parts = [new vscode.LanguageModelTextPart(JSON.stringify(head))];
  if (body) parts.push(new vscode.LanguageModelTextPart(body));
  return new vscode.LanguageModelToolResult(parts);
}
