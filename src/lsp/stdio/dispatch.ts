/**
 * The seam's four operations as LSP requests to a language server (plain Node): the document is
 * opened around the requests, `findReferences` asks references (`includeDeclaration: true`) and
 * the definition together, hovers are flattened to text.
 */
import { flattenHover } from '../hoverText';
import { toNavLocations } from '../locations';
import { assertNever, LspRequest, NavLocation } from '../types';
import type { ProtocolModule } from './protocol';
import type { ServerSession } from './session';

/** A server's raw answer to one operation (shaped into the seam's result by `shapeAnswer`). */
export interface Answer {
  readonly locations?: readonly NavLocation[];
  /** For `findReferences`: the definitions at the same position (marked `isDeclaration`). */
  readonly definitions?: readonly NavLocation[];
  readonly hover?: string | null;
}

/** True for an answer that says nothing (no locations, no hover). */
export function isEmptyAnswer(a: Answer): boolean {
  if (a.hover !== undefined) return a.hover === null;
  return (a.locations?.length ?? 0) === 0 && (a.definitions?.length ?? 0) === 0;
}

/**
 * Ask `session` for `request`'s operation on the document whose current text is `text`.
 * @throws the protocol's error, `Error('the server exited')`, or LspError `cancelled`.
 */
export async function dispatch(
  session: ServerSession,
  protocol: ProtocolModule,
  request: LspRequest,
  text: string,
  signal: AbortSignal,
): Promise<Answer> {
  const P = protocol;
  const uri = request.uri;
  const textDocument = { uri };
  const position = { line: request.position.line, character: request.position.character };
  await session.documents.acquire(uri, request.languageId, text);
  try {
    return await session.withCancellation(signal, async (token, guard) => {
      const op = request.operation;
      switch (op) {
        case 'goToDefinition':
          return {
            locations: toNavLocations(
              await guard(session.connection.sendRequest(P.DefinitionRequest.type, { textDocument, position }, token)),
            ),
          };
        case 'goToImplementation':
          return {
            locations: toNavLocations(
              await guard(session.connection.sendRequest(P.ImplementationRequest.type, { textDocument, position }, token)),
            ),
          };
        case 'findReferences': {
          const [refs, defs] = await Promise.all([
            guard(
              session.connection.sendRequest(
                P.ReferencesRequest.type,
                { textDocument, position, context: { includeDeclaration: true } },
                token,
              ),
            ),
            guard(session.connection.sendRequest(P.DefinitionRequest.type, { textDocument, position }, token)),
          ]);
          return { locations: toNavLocations(refs), definitions: toNavLocations(defs) };
        }
        case 'hover': {
          const h = await guard(session.connection.sendRequest(P.HoverRequest.type, { textDocument, position }, token));
          return { hover: flattenHover(h ? h.contents : null) };
        }
        default:
          return assertNever(op);
      }
    });
  } finally {
    await session.documents.release(uri);
  }
}
