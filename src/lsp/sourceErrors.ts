/**
 * The two errors every language source (VS Code's providers, configured stdio servers) fails with
 * when it cannot answer (plain Node): the document cannot be opened, and the language is not ready.
 * One wording for both, so a model learns one rule: "not ready" is never "no results".
 */
import { fileURLToPath } from 'node:url';
import { LspError } from './types';
import { errorMessage } from '../common/errorMessage';
import { textHead } from '../common/textHead';

/** Most UTF-16 code units of what a source says in a report (its error, its note) that an answer shows. */
export const SOURCE_TEXT_MAX_UNITS = 1000;

/**
 * What a source said (an error's message, a note), as an answer's report shows it: at most
 * {@link SOURCE_TEXT_MAX_UNITS} UTF-16 code units, cut with `…` (a surrogate pair never split).
 */
export function sourceText(said: unknown): string {
  return textHead(typeof said === 'string' ? said : errorMessage(said), SOURCE_TEXT_MAX_UNITS);
}

/**
 * `file_not_found`: the document `uri` (a URI string) could not be opened or read. The message
 * names the file (its path for `file:` URIs) and the cause's message as {@link sourceText} bounds
 * it; `details.uri` is `uri`; the whole cause stays the error's `cause`.
 */
export function fileNotFoundError(uri: string, cause: unknown): LspError {
  let shown = uri;
  try {
    if (uri.startsWith('file:')) shown = fileURLToPath(uri);
  } catch {
    // not a valid file URI: show it as given
  }
  const why = sourceText(cause);
  return new LspError('file_not_found', `cannot open ${shown}: ${why}`, { uri }, { cause });
}

/**
 * `no_provider` with `details.reason: 'not_ready'`: `subject` (e.g. "language support for .ts
 * (typescript)") did not answer within the call's time limit. Message:
 * `<subject> is not available or not ready: <why>. <todo>; this is not the same as "no results".`
 * `details` is merged into the error's details.
 */
export function notReadyError(subject: string, why: string, todo: string, details: Readonly<Record<string, unknown>> = {}): LspError {
  return new LspError('no_provider', `${subject} is not available or not ready: ${why}. ${todo}; this is not the same as "no results".`, {
    ...details,
    reason: 'not_ready',
  });
}
