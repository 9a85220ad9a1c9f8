/** One command of a shell block, as a reader would paste it. */
export interface DocCommand {
  /** As written, continuation lines and comments included. */
  readonly text: string;
  /** Without comments, whitespace collapsed: what the manifest matches. */
  readonly code: string;
  /** The 1-based line of the Markdown file where it starts. */
  readonly line: number;
}

export interface DocBlock {
  readonly file: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly commands: readonly DocCommand[];
}

export const SHELL_LANGUAGES: ReadonlySet<string>;
export function isDocFile(path: string): boolean;
export function docBlocks(root: string): DocBlock[];
export function extractBlocks(markdown: string, file: string): DocBlock[];
export function splitCommands(script: string, firstLine?: number, where?: string): DocCommand[];
export function normalize(command: string): string;
