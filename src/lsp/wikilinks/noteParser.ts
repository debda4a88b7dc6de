/**
 * Where the wiki-link index parses its notes (plain Node, no `vscode` import): the
 * {@link NoteParser} interface, and {@link inlineNoteParser}, which parses on the calling thread.
 * The extension uses `WorkerNoteParser` (a worker thread) so no parse blocks the extension host
 * thread; both give the same {@link ParsedNote} for the same text and options.
 */
import { AliasOrder, NoteLimits, parseNote, ParsedNote } from './parse';

/** What a {@link NoteParser} is asked to do with one note's text. */
export interface NoteParseOptions {
  readonly aliasOrder: AliasOrder;
  /** A note over these is parsed partly ({@link ParsedNote.partial}). */
  readonly limits: NoteLimits;
}

/** Parses notes for the index. */
export interface NoteParser {
  /**
   * The parse of `text` (see `parseNote`).
   * @throws Error when the parser failed or was disposed (the note is then skipped and reported).
   */
  parse(text: string, options: NoteParseOptions): Promise<ParsedNote>;
}

/**
 * Parses on the calling thread: for plain-Node callers and tests. A parse of a note at the
 * limits holds the thread for its whole duration (up to seconds), so the extension does not use it.
 */
export const inlineNoteParser: NoteParser = {
  parse: (text, options) => Promise.resolve(parseNote(text, options)),
};
