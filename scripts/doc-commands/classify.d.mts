import type { DocBlock, DocCommand } from './extract.mjs';

/** A manifest entry, as far as classifying goes (the runner reads the rest). */
export interface ManifestEntry {
  readonly file?: string;
  /** The start of the block's first command. */
  readonly block?: string;
  /** The starts of the commands of the block this entry takes (default: all of them). */
  readonly part?: readonly string[];
  /** Why the whole entry is not run here. */
  readonly skip?: string;
  readonly commands?: Readonly<
    Record<string, { readonly skip?: string } & Record<string, unknown>>
  >;
  readonly stop?: string;
  readonly [key: string]: unknown;
}

export interface Skipped {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly reason: string;
}

export interface Run {
  readonly entry: ManifestEntry;
  readonly block: DocBlock;
  readonly commands: readonly { command: DocCommand; spec: { skip?: string } }[];
}

export function matchOne<T>(
  items: readonly T[],
  key: string,
  codeOf: (item: T) => string,
): { match: T; error?: undefined } | { match?: undefined; error: string };

export function classify(
  blocks: readonly DocBlock[],
  entries: readonly ManifestEntry[],
): { runs: Run[]; skipped: Skipped[]; problems: string[] };
