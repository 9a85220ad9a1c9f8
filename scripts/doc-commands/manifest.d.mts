import type { ManifestEntry } from './classify.mjs';

export const MANIFEST: readonly ManifestEntry[];
export const SESSIONS: Readonly<Record<string, unknown>>;
