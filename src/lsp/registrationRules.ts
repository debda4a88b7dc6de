/**
 * What a navigation provider may be called and what it may serve (plain Node, no `vscode`
 * import): the one definition of a valid provider id, file extension and languageId, used by the
 * seam's registration, the `dsh.lsp.servers` setting and the VS Code provider's contributed
 * languages.
 */

/** 1–64 letters, digits, `.`, `_` or `-`, starting with a letter or digit (`md-links`, `bash`). */
export function isProviderId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(id);
}

/**
 * One leading dot and no other dot, no `/`, `\` or whitespace (`.ts`, `.md`): the part of a file
 * name that selects a provider (`foo.d.ts` is served by `.ts`). Case is checked by the caller
 * (keys must be lower case; files match case-insensitively).
 */
export function isFileExtension(extension: unknown): extension is string {
  return typeof extension === 'string' && /^\.[^./\\\s]+$/.test(extension);
}

/** A non-empty languageId without whitespace (`typescript`, `shellscript`). */
export function isLanguageId(languageId: unknown): languageId is string {
  return typeof languageId === 'string' && /^[^\s]+$/.test(languageId);
}
