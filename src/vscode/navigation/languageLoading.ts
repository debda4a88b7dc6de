/**
 * Loading a language's project before answering, and telling whether it has loaded (VS Code layer).
 *
 * Language support in VS Code looks at the workspace only through documents: TypeScript starts a
 * project when a document of it opens, and answers from a syntax-only server that sees open files
 * only while the project loads (references, implementations, workspace symbols and hovers are
 * routed there during loading; its hovers then start with "(loading...)"). So before a question
 * whose answer depends on the whole project, a document of the language is opened (as a person
 * would: `vscode.workspace.openTextDocument`, no editor tab), and every answer is judged by a probe
 * asked just before it.
 *
 * The readiness signal ({@link probeLanguage}), per document:
 * 1. an extension that activates on the language (`onLanguage:<id>` in its `activationEvents`) and
 *    is not active yet: `loading` (its providers are not registered, answers are empty);
 * 2. a hover on the document's first symbol (`vscode.executeDocumentSymbolProvider`, then
 *    `vscode.executeHoverProvider`): "(loading...)" -> `loading`; any other text -> `settled` (the
 *    project was loaded when it answered, and questions asked after it go to the full project);
 *    no hover -> `unknown`; no symbols at all -> `unknown` (the language has no symbol support,
 *    nothing tells its loading).
 */
import * as vscode from 'vscode';
// The ES module build: the package's `main` is a UMD wrapper whose dynamic requires esbuild cannot
// follow ("Cannot find module './impl/format'" at activation).
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main';
import type { AnswerState } from '../../lsp/askUntilSettled';
import { firstSymbolItem } from '../../lsp/features/convert';
import { flattenHover } from '../../lsp/hoverText';
import { isLoadingHover } from '../../lsp/loadingHover';
import { fileNotFoundError } from '../../lsp/sourceErrors';
import { readNavigationText } from '../../lsp/fileRead';
import { TimeSlice } from '../../lsp/timeSlice';
import { FileEventQueue } from '../fileEventQueue';
import { mayBeFolder, mayBeFolderLoosely } from '../../common/createdFolder';

/** Folders never searched for a file to load (dependencies and build output). */
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/dist/**,**/out/**,**/build/**}';
/** A path inside one of the {@link EXCLUDE} folders: files created or deleted there change nothing found. */
const EXCLUDED_FOLDER = /\/(node_modules|\.git|dist|out|build)\//;
/** How many entries of a created folder are looked at before it counts as a change. */
const FOLDER_LOOK_LIMIT = 20_000;
/**
 * Events still waiting below which any created name is asked whether it is a folder: a folder moved
 * in comes as one event, and a clone can be named like a file (`three.js`). Within a burst of files
 * names are looked at alone (one `stat` each would queue 10 000 behind them); only the last 15
 * events of each batch the watcher delivers get one. Events in dependency and build folders count
 * as waiting too, so a clone moved in while `npm install` writes is asked about only when it comes
 * near the end of a batch.
 */
const ASK_ANY_NAME_BELOW = 16;
/** A TypeScript or JavaScript project file. */
const PROJECT_FILE = /\/(tsconfig|jsconfig)\.json$/;
/** How many files {@link WorkspaceLanguages.load} looks at to find the languages present. */
const SCAN_LIMIT = 2000;
/** Extensions of the languages TypeScript's project files (`tsconfig.json`, `jsconfig.json`) cover. */
const TS_FAMILY = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

/** True when `uri` is a folder now (a symbolic link to one counts); false when it is not or is gone. */
async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

/** Opens the document `uri` (a URI string). @throws LspError `file_not_found`. */
export async function openDocument(uri: string | vscode.Uri): Promise<vscode.TextDocument> {
  const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
  try {
    return await vscode.workspace.openTextDocument(u);
  } catch (e) {
    throw fileNotFoundError(u.toString(), e);
  }
}

/** The least ready of several states: `loading` < `unknown` < `settled` (none -> `settled`). */
export function leastReady(states: readonly AnswerState[]): AnswerState {
  return states.includes('loading') ? 'loading' : states.includes('unknown') ? 'unknown' : 'settled';
}

/**
 * What {@link probeLanguage} learnt: the state; whether the document has symbols (its language has
 * support that looked at it); `supported`: anything showed the language has support (an extension
 * activating for it, symbols, a hover).
 */
export interface LanguageProbe {
  readonly state: AnswerState;
  readonly hasSymbols: boolean;
  readonly supported: boolean;
}

/**
 * The readiness of `document`'s language, asked now (see the module comment).
 */
export async function probeLanguage(document: vscode.TextDocument): Promise<LanguageProbe> {
  if (activating(document.languageId)) return { state: 'loading', hasSymbols: false, supported: true };
  const first = await firstSymbolItem(
    await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', document.uri),
    0,
    document.uri.toString(),
  );
  if (!first) return { state: 'unknown', hasSymbols: false, supported: false };
  const position = new vscode.Position(first.selectionRange.start.line, first.selectionRange.start.character);
  const hovers = await vscode.commands.executeCommand<unknown>('vscode.executeHoverProvider', document.uri, position);
  const text = flattenHover(Array.isArray(hovers) ? hovers.map((h) => (h as { contents?: unknown })?.contents) : null);
  return { state: text === null ? 'unknown' : isLoadingHover(text) ? 'loading' : 'settled', hasSymbols: true, supported: true };
}

/** What a search of the workspace found: one file per project, then the first file of each other language. */
interface LanguageFiles {
  readonly projects: ReadonlyArray<{ readonly dir: vscode.Uri; readonly file: vscode.Uri }>;
  readonly others: readonly vscode.Uri[];
  /** Folders of project files that included no file yet: a file created under one can start that project. */
  readonly emptyProjects: readonly vscode.Uri[];
  /** The languages of `projects` and `others`, as `languageOf` named them at the search. */
  readonly languages: ReadonlySet<string>;
}

/**
 * Finds and opens one document per language for workspace-wide questions (see
 * {@link WorkspaceLanguages.load}). Each `findFiles` is a file search the window runs and answers
 * through its channel (100-240 ms of delay for every other extension's calls with 10 000 files),
 * so what the search found is kept until a file event could change it: a project file created,
 * changed or deleted; a file created of a language not found yet, or under a project file that
 * included nothing yet, or such a file in a created folder (a watcher can report a folder moved
 * in without its files; a created name is looked at when it has no dot or does not end like a
 * common file, `me.github.io`, see `mayBeFolderLoosely`, and any name when fewer than 16 events
 * wait, `three.js`); a file found, or a folder holding one, deleted; a file found that no
 * longer opens; the workspace folders or DSH Bridge's settings changed. Events in dependency and
 * build folders change nothing. Watching starts with the first search; dispose to stop it.
 */
export class WorkspaceLanguages implements vscode.Disposable {
  private found: Promise<LanguageFiles> | undefined;
  /** What `found` resolved to, once it has: the event filter reads it. */
  private known: LanguageFiles | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private watching = false;

  /**
   * @param languageOf the languageId of a document URI (string) the VS Code source answers for
   *   (the seam's routing sends it to the `vscode` provider), `undefined` for other files: only
   *   such languages are loaded for workspace-wide questions.
   */
  constructor(private readonly languageOf: (uri: string) => string | undefined) {}

  /** Starts following the file events that can change what the search found (once, before the first search: until then nothing was found). */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const anyFile = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const projectFile = vscode.workspace.createFileSystemWatcher('**/{tsconfig,jsconfig}.json', true, false, true);
    const forget = () => {
      this.found = undefined;
      this.known = undefined;
    };
    // A burst of events (10 000 files written) is looked at in slices, not in the listener.
    const events = new FileEventQueue(
      async (uri, kind, waiting) => {
        if (kind === 'deleted' ? this.deletedChanges(uri) : await this.createdChanges(uri, waiting < ASK_ANY_NAME_BELOW)) forget();
      },
      () => forget(),
    );
    this.subscriptions.push(
      events,
      anyFile,
      projectFile,
      anyFile.onDidCreate((uri) => events.push(uri, 'changed')),
      anyFile.onDidDelete((uri) => events.push(uri, 'deleted')),
      projectFile.onDidChange(forget),
      vscode.workspace.onDidChangeWorkspaceFolders(() => forget()),
      // Which languages the VS Code source serves follows the configured language servers.
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('dsh') && forget()),
    );
  }

  dispose(): void {
    this.watching = true; // a search after dispose does not start watching again
    for (const d of this.subscriptions) d.dispose();
    this.found = undefined;
    this.known = undefined;
  }

  /**
   * Whether a file or folder created at `uri` could change what the search finds (see the class
   * comment); `askAnyName`: few events wait (a lone one, the end of a burst), so a name that ends
   * like a common file is asked about too.
   */
  private async createdChanges(uri: vscode.Uri, askAnyName: boolean): Promise<boolean> {
    if (EXCLUDED_FOLDER.test(`${uri.path}/`)) return false;
    if (!this.known) return true;
    if (mayBeFolder(uri.path) || ((askAnyName || mayBeFolderLoosely(uri.path)) && (await isFolder(uri)))) return this.folderChanges(uri);
    return this.fileChanges(uri);
  }

  private fileChanges(uri: vscode.Uri): boolean {
    if (PROJECT_FILE.test(uri.path) || !this.known) return true;
    const lang = this.languageOf(uri.toString());
    if (lang === undefined) return false;
    return !this.known.languages.has(lang) || this.known.emptyProjects.some((dir) => uri.path.startsWith(`${dir.path}/`));
  }

  /**
   * Whether a created folder (a watcher can report one moved in without its files) holds a file
   * that changes what the search finds; a file without an extension changes nothing. Looks at up to
   * {@link FOLDER_LOOK_LIMIT} entries, then counts the folder as a change.
   */
  private async folderChanges(uri: vscode.Uri): Promise<boolean> {
    let budget = FOLDER_LOOK_LIMIT;
    const slice = new TimeSlice(); // a folder of thousands of files: the loop yields every few ms
    const look = async (dir: vscode.Uri): Promise<boolean> => {
      let entries: Array<[string, vscode.FileType]>;
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        return false; // not a folder, or gone again
      }
      for (const [name, type] of entries) {
        if (--budget < 0) return true;
        await slice.pause();
        const child = vscode.Uri.joinPath(dir, name);
        if (type & vscode.FileType.Directory) {
          if (!EXCLUDED_FOLDER.test(`${child.path}/`) && (await look(child))) return true;
        } else if (this.fileChanges(child)) return true;
      }
      return false;
    };
    return look(uri);
  }

  /** Whether deleting `uri` (a file, or a folder and all under it) could change what the search found. */
  private deletedChanges(uri: vscode.Uri): boolean {
    if (EXCLUDED_FOLDER.test(uri.path)) return false;
    if (PROJECT_FILE.test(uri.path) || !this.known) return true;
    const found = [...this.known.projects.map((p) => p.file), ...this.known.others];
    return found.some((f) => f.path === uri.path || f.path.startsWith(`${uri.path}/`));
  }

  /**
   * Documents that make each language present in the workspace folders (and served by the VS Code
   * source) load the workspace: for TypeScript and JavaScript one file of each project (a file
   * each `tsconfig.json` / `jsconfig.json` includes: its `files`, else the first match of its
   * `include` patterns; up to 20 projects, shallowest first), since TypeScript searches only the
   * projects of open files; for every other language the first file found. A file is opened
   * (`openTextDocument`, no editor tab) only when no open document stands for it: a document of
   * the same project for project files, of the same language otherwise. Looks at up to 2000 files
   * (dependencies and build folders excluded).
   * @returns the documents to probe (open before, or opened now), one per project or language.
   */
  async load(signal: AbortSignal): Promise<vscode.TextDocument[]> {
    this.watch();
    // Shared by concurrent questions; a question cancelled meanwhile stops here.
    const found = (this.found ??= this.search().then((files) => {
      if (this.found === found) this.known = files;
      return files;
    }));
    let files: LanguageFiles;
    try {
      files = await found;
    } catch (e) {
      if (this.found === found) this.found = this.known = undefined; // a failed search is not kept
      throw e;
    }
    if (signal.aborted) return [];
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && this.languageOf(d.uri.toString()) !== undefined);
    const wanted: vscode.Uri[] = [];
    for (const { dir, file } of files.projects) {
      const lang = this.languageOf(file.toString());
      if (lang === undefined) continue;
      const inProject = open.find((d) => d.languageId === lang && d.uri.path.startsWith(`${dir.path}/`));
      wanted.push(inProject?.uri ?? file);
    }
    for (const file of files.others) {
      const lang = this.languageOf(file.toString());
      if (lang !== undefined) wanted.push(open.find((d) => d.languageId === lang)?.uri ?? file);
    }
    const out: vscode.TextDocument[] = [];
    for (const uri of wanted) {
      const document = await openDocument(uri).catch(() => undefined);
      if (document) out.push(document);
      else if (this.found === found) this.found = this.known = undefined; // gone since the search: search again next time
    }
    return out;
  }

  /** The project files, then the first file of each language they do not cover (up to 2000 files looked at). */
  private async search(): Promise<LanguageFiles> {
    const { projects, emptyProjects } = await this.projectFiles();
    const languages = new Set<string>();
    for (const { file } of projects) languages.add(this.languageOf(file.toString())!);
    const others: vscode.Uri[] = [];
    for (const uri of await vscode.workspace.findFiles('**/*', EXCLUDE, SCAN_LIMIT)) {
      const lang = this.languageOf(uri.toString());
      if (lang === undefined || languages.has(lang)) continue;
      languages.add(lang);
      others.push(uri);
    }
    return { projects, others, emptyProjects, languages };
  }

  /**
   * For each `tsconfig.json` / `jsconfig.json` in the workspace (up to 20, shallowest first): its
   * folder and the first file it includes; the folders of those that include none.
   */
  private async projectFiles(): Promise<Pick<LanguageFiles, 'projects' | 'emptyProjects'>> {
    const configs = await vscode.workspace.findFiles('**/{tsconfig,jsconfig}.json', EXCLUDE, 20);
    configs.sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
    const projects: Array<{ dir: vscode.Uri; file: vscode.Uri }> = [];
    const emptyProjects: vscode.Uri[] = [];
    for (const config of configs) {
      const dir = vscode.Uri.joinPath(config, '..');
      const file = await includedFile(config);
      if (file && this.languageOf(file.toString()) !== undefined) projects.push({ dir, file });
      else if (!file) emptyProjects.push(dir);
    }
    return { projects, emptyProjects };
  }
}

/** A file the project file `config` includes: its first existing `files` entry, else the first match of its `include` patterns, else a file beside it. */
async function includedFile(config: vscode.Uri): Promise<vscode.Uri | undefined> {
  const dir = vscode.Uri.joinPath(config, '..');
  let json: { files?: unknown; include?: unknown } = {};
  try {
    json = (parseJsonc((await readNavigationText(config.fsPath)).text) as typeof json | undefined) ?? {};
  } catch {
    // unreadable: look beside it
  }
  for (const f of Array.isArray(json.files) ? json.files : []) {
    if (typeof f !== 'string' || !TS_FAMILY.test(f)) continue;
    const uri = vscode.Uri.joinPath(dir, f);
    if (
      await vscode.workspace.fs.stat(uri).then(
        () => true,
        () => false,
      )
    )
      return uri;
  }
  const include = Array.isArray(json.include) ? json.include.filter((g): g is string => typeof g === 'string') : ['**/*'];
  for (const g of include) {
    // "src" and "src/" mean everything under src (TypeScript's rule for a pattern without a file part).
    const glob = /[*?]|\.[a-z]+$/i.test(g) ? g : `${g.replace(/\/+$/, '')}/**/*`;
    const found = (await vscode.workspace.findFiles(new vscode.RelativePattern(dir, glob), EXCLUDE, 50)).filter(
      (u) => TS_FAMILY.test(u.path) && !/\.d\.[mc]?ts$/i.test(u.path),
    );
    found.sort((a, b) => (a.path < b.path ? -1 : 1));
    if (found[0]) return found[0];
  }
  return undefined;
}

/** True while an extension that activates on `languageId` (`onLanguage:<id>`) has not activated. */
function activating(languageId: string): boolean {
  const event = `onLanguage:${languageId}`;
  return vscode.extensions.all.some((e) => {
    if (e.isActive) return false;
    const events = (e.packageJSON as { activationEvents?: unknown } | undefined)?.activationEvents;
    return Array.isArray(events) && events.includes(event);
  });
}
