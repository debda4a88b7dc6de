/** The messages between the approval thread (approvalThread.ts) and its worker (approvalWorker.ts). */
import type { ApprovalContext, LineDecision } from './types';

/** What the worker is started with (`workerData`). */
export interface ApprovalWorkerData {
  /** The `wasm` folder of `@vscode/tree-sitter-wasm`. */
  wasmFolder: string;
}

/** One line to judge; `parseBoundMs` bounds each parse of it (bashGrammar.ts). */
export interface ApprovalRequest {
  id: number;
  line: string;
  context: ApprovalContext;
  parseBoundMs: number;
}

/** The decision for request `id`, or why it could not be made. */
export type ApprovalReply = { id: number; decision: LineDecision } | { id: number; error: string };
