/**
 * The navigation seam's public API (plain Node, no `vscode` import), for the composition root and
 * the VS Code layer (`dsh_lsp` tool, editor providers, the `vscode.workspace.fs` adapter).
 *
 * - Types and errors: `./types` (LSP shapes, the closed operation union, results, `LspError`).
 * - `LspService`: provider registration and routing by file extension (`./service`).
 * - The one position converter and symbol re-anchoring (`./position`).
 * - URI helpers (`./uri`).
 * - What `dsh_lsp` shows the model: result shaping and paging (`./shapeLocations`, `./pageSummary`,
 *   `./placeUri`, `./previewLine`), hover text (`./hoverText`, `./loadingHover`), declaration-keyword
 *   snapping (`./declaredName`), the used position and its bounded line (`./usedPosition`,
 *   `./lineWindow`, `./symbolAnchor`).
 * - The `md-links` wiki-link provider and its file-system interface (`./wikilinks/*`).
 * - The one navigation file read (regular files only, bounded, never blocking: `./fileRead`) and
 *   workspace containment by real path with the record of consents to read outside (`./containment`).
 */

export * from './types';
export { LspService } from './service';
export type { ProviderDescription, ServiceDescription, FallbackBuilder, FallbackRegistration } from './service';
export {
  splitLines,
  codePointLength,
  modelColumnToCharacter,
  characterToModelColumn,
  toLspPosition,
  toModelPosition,
} from './position';
export type { ModelPosition, ConvertedPosition } from './position';
export { anchorToSymbol } from './symbolAnchor';
export type { SymbolAnchor } from './symbolAnchor';
export { lineWindow, LINE_TEXT_MAX_UNITS, CUT_MARKER } from './lineWindow';
export type { LineWindow } from './lineWindow';
export { resolveModelPosition } from './usedPosition';
export type { UsedPosition } from './usedPosition';
export { parseUri, formatUri, canonicalUri, uriKey, joinUri, relativePathOf, extensionOfUri, encodePath, fileUriToPath, pathToFileUri } from './uri';
export { realUri } from './realUri';
export type { ParsedUri } from './uri';
export { shapeLocations, DEFAULT_LIMIT, MAX_LIMIT } from './shapeLocations';
export type { ShownLocation, ShapedLocations, ShapeOptions, WithheldLines } from './shapeLocations';
export { summarize } from './pageSummary';
export type { FileCount, CollapsedGroup } from './pageSummary';
export { placeUri } from './placeUri';
export type { PlacedPath } from './placeUri';
export { preview, PREVIEW_MAX_CHARS } from './previewLine';
export { flattenHover } from './hoverText';
export { isLoadingHover } from './loadingHover';
export { snapToDeclaredName } from './declaredName';
export type { Snap } from './declaredName';
export {
  readNavigationFile,
  readNavigationText,
  checkNavigationFile,
  isPseudoFilePath,
  describeFileKind,
  NavigationReadError,
  NAVIGATION_READ_CAP_BYTES,
  PSEUDO_FILE_ROOTS,
} from './fileRead';
export type { NavigationFile, NavigationReadOptions, NavigationReadRefusal } from './fileRead';
export {
  containmentOf,
  containmentOfReal,
  isInsideFolder,
  realFolders,
  readNavigationFileInside,
  checkInside,
  outsideMessage,
  OutsideReadConsents,
  OUTSIDE_READ_CONSENT_TTL_MS,
} from './containment';
export type { Containment } from './containment';
export { MdLinksProvider, MD_LINKS_PROVIDER_ID } from './wikilinks/provider';
export type { MdLinksOptions } from './wikilinks/provider';
export { FileType, isNotFoundError } from './wikilinks/workspaceFs';
export type { WorkspaceFs, FileStat } from './wikilinks/workspaceFs';
export { VaultIndex } from './wikilinks/vaultIndex';
export type { VaultIndexOptions, VaultIndexStats, IndexedNote, IndexedLink } from './wikilinks/vaultIndex';
export { parseNote } from './wikilinks/parse';
export type { AliasOrder, WikiLink, WikiLinkAnchor, Heading, BlockAnchor, ParsedNote, IgnoredRegion } from './wikilinks/parse';
export { resolveTarget, slugify } from './wikilinks/resolve';
export type { Resolution, ResolvableFile } from './wikilinks/resolve';
