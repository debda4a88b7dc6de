/**
 * The worker thread of an {@link ApprovalThread}: loads tree-sitter-bash once, then judges one
 * command line per request, in the order posted (approveLine.ts). Bundled on its own as
 * `dist/approvalWorker.js`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../common/errorMessage';
import type { ApprovalReply, ApprovalRequest, ApprovalWorkerData } from './approvalProtocol';
import { approveLine } from './approveLine';
import { loadBashGrammar } from './bashGrammar';

/** Sub-commands (and file writes, blockers) a reply carries at most. */
const REPLY_SUB_COMMANDS = 64;

const port = parentPort;
if (!port) throw new Error('approvalWorker runs only as a worker thread');
const grammar = loadBashGrammar((workerData as ApprovalWorkerData).wasmFolder);
// A failed load is answered to each request; this keeps it from being an unhandled rejection.
grammar.catch(() => undefined);

port.on('message', (m: ApprovalRequest) => {
  grammar.then(
    (g) => {
      let reply: ApprovalReply;
      try {
        const decision = approveLine(m.line, m.context, g.parser(m.parseBoundMs));
        // The calling thread copies the reply: the sub-commands it takes are capped (the reasons already are).
        reply = {
          id: m.id,
          decision: {
            ...decision,
            subCommands: decision.subCommands.slice(0, REPLY_SUB_COMMANDS),
            fileWrites: decision.fileWrites.slice(0, REPLY_SUB_COMMANDS),
            blockers: decision.blockers.slice(0, REPLY_SUB_COMMANDS),
          },
        };
      } catch (error) {
        reply = { id: m.id, error: errorMessage(error) };
      }
      port.postMessage(reply);
    },
    (error: unknown) =>
      port.postMessage({ id: m.id, error: `the bash grammar did not load: ${errorMessage(error)}` } satisfies ApprovalReply),
  );
});
