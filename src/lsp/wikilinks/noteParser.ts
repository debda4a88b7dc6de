/**
 * Where the wiki-link index parses its notes (plain Node, no `vscode` import): the
 * {@link NoteParser} interface, and {@link inlineNoteParser}, which parses on the calling thread.
 * The extension uses `WorkerNoteParser` (a worker thread) so no parse blocks the extension host
 * thread; both give the same {@link ParsedNote} for the same text and options.
 */
import { NoteLimits, parseNote } from './parse';
import type { AliasOrder, ParsedNote } from './parsedNote';
import { readNavigationFileInside } from '../containment';
import { NavigationReadOptions, readNavigationFile } from '../fileRead';
import { errorMessage } from '../../common/errorMessage';

/** A note's text, or its bytes in UTF-8 (decoded by the parser, on its thread; a leading BOM is dropped). */
export type NoteSource = string | Uint8Array;

/**
 * A note's file as any thread of this process can read it with the navigation read
 * (`../fileRead.ts`: regular files only, up to its cap, never blocking).
 */
export interface NoteFile {
  /** Absolute path. */
  readonly path: string;
  /** Real paths of the folders the file's real path must lie in (`../containment.ts`); absent: anywhere. */
  readonly insideFolders?: readonly string[];
}

/**
 * The file of a note could not be read (nothing was parsed). `code` is Node's (`ENOENT`, `EACCES`,
 * …) or the navigation read's refusal (`not_regular_file`, `too_large`, `outside_workspace`, …).
 */
export class NoteReadError extends Error {
  override readonly name = 'NoteReadError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** How a note's file is read: the navigation read's `blocking` (see `../fileRead.ts`). */
export type ReadNoteOptions = Pick<NavigationReadOptions, 'blocking'>;

/**
 * The bytes of `file`, read with the navigation read (inside `insideFolders` when given).
 * `options.blocking`: make the system calls synchronously (only on a thread that may block, such
 * as the parser's worker; see `../fileRead.ts`).
 * @throws the navigation read's errors (NavigationReadError, Node's `ENOENT` …).
 */
export async function readNoteBytes(file: NoteFile, options: ReadNoteOptions = {}): Promise<Uint8Array> {
  return (
    file.insideFolders
      ? await readNavigationFileInside(file.path, file.insideFolders, options)
      : await readNavigationFile(file.path, options)
  ).bytes;
}

/**
 * {@link readNoteBytes}, its errors as one kind for the parser's callers.
 * @throws NoteReadError with the read's message and code.
 */
export async function readNoteFile(file: NoteFile, options: ReadNoteOptions = {}): Promise<Uint8Array> {
  try {
    return await readNoteBytes(file, options);
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    throw new NoteReadError(errorMessage(e), typeof code === 'string' ? code : undefined);
  }
}

const utf8 = new TextDecoder('utf-8');

/** The text of `source`: as it is, or its bytes decoded as UTF-8 without a leading BOM. */
export function noteText(source: NoteSource): string {
  return typeof source === 'string' ? source : utf8.decode(source);
}

/** What a {@link NoteParser} is asked to do with one note's text. */
export interface NoteParseOptions {
  readonly aliasOrder: AliasOrder;
  /** A note over these is parsed partly ({@link ParsedNote.partial}). */
  readonly limits: NoteLimits;
}

/** Parses notes for the index. */
export interface NoteParser {
  /**
   * The parse of `source` (see `parseNote`). Bytes are decoded where the parse runs, so a worker
   * parser keeps the decoding of a big note off the calling thread too. Bytes are handed over: a
   * parser may take their buffer (a worker parser transfers it, leaving them empty), so the caller
   * passes bytes it no longer needs, whose buffer holds nothing else (e.g. a file just read).
   * @throws Error when the parser failed or was disposed (the note is then skipped and reported).
   */
  parse(source: NoteSource, options: NoteParseOptions): Promise<ParsedNote>;
  /**
   * Optional: reads `file` ({@link readNoteFile}) and parses it, both where the parser runs, so
   * a worker parser keeps a vault's reads off the calling thread too. Without it, the index reads
   * the file and calls {@link parse}.
   * @throws NoteReadError when the file could not be read; Error when the parser failed.
   */
  parseFile?(file: NoteFile, options: NoteParseOptions): Promise<ParsedNote>;
}

/**
 * Parses on the calling thread: for plain-Node callers and tests. A parse of a note at the
 * limits holds the thread for its whole duration (up to seconds), so the extension does not use it.
 */
export const inlineNoteParser: NoteParser = {
  parse: (source, options) => Promise.resolve(parseNote(noteText(source), options)),
  parseFile: async (file, options) => parseNote(noteText(await readNoteFile(file)), options),
};
