import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_TOKEN_LENGTH_MIN, type Config } from './config.js';
import { generateSecret } from './credentials/secrets.js';
import { createFileOnce } from './data-dir-files.js';
import type { StartLog } from './start-log.js';

/** The generated admin token's file inside the data directory. */
export const ADMIN_TOKEN_FILE = 'admin-token';

export interface AdminToken {
  readonly token: string;
  readonly source: 'config' | 'generated' | 'file';
  readonly path: string;
  readonly mode: number;
}

/**
 * The configured admin token, or the one in `<dataDir>/admin-token`, generated there (mode 0600)
 * on first start. Creation is exclusive, so processes starting together share one token.
 */
export async function loadAdminToken(config: Config): Promise<AdminToken> {
  const path = join(config.dataDir, ADMIN_TOKEN_FILE);
  if (config.adminToken !== null) {
    return { token: config.adminToken, source: 'config', path, mode: 0 };
  }
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const fresh = generateSecret('cat');
  if (await createFileOnce(path, `${fresh}\n`)) {
    return { token: fresh, source: 'generated', path, mode: 0o600 };
  }
  const token = checkFileToken(path, await readFile(path, 'utf8'));
  return { token, source: 'file', path, mode: (await stat(path)).mode & 0o777 };
}

/**
 * Refuses a start whose `<dataDir>/admin-token` holds a bad token, before the start creates
 * anything (the database, the secrets key): a refused start leaves no files behind.
 */
export async function checkAdminTokenFile(config: Config): Promise<void> {
  if (config.adminToken !== null || !config.services.includes('api')) return;
  const path = join(config.dataDir, ADMIN_TOKEN_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  checkFileToken(path, text);
}

/** The admin token file holds no usable token: the message names the file. */
export class AdminTokenError extends Error {
  override readonly name = 'AdminTokenError';
}

/** The token in the file, held to the same length as one given by flag or environment. */
function checkFileToken(path: string, text: string): string {
  const token = text.trim();
  if (token === '') {
    throw new AdminTokenError(`${path} is empty: delete it to generate a new admin token`);
  }
  if (token.length < ADMIN_TOKEN_LENGTH_MIN) {
    throw new AdminTokenError(
      `${path} holds an admin token of ${token.length} characters: it must be at least ` +
        `${ADMIN_TOKEN_LENGTH_MIN} (it can mint HST): write one made with openssl rand -hex 32 ` +
        'into it, or delete the file to have coinop generate one',
    );
  }
  return token;
}

/** A token file others may read is worth a warning; a tidy one is in the start banner. */
export function warnAboutAdminToken(log: StartLog, admin: AdminToken): void {
  if (!(admin.mode & 0o077)) return;
  const verb = admin.source === 'generated' ? 'generated a new' : 'using the';
  log.warn(
    `${verb} admin token in ${admin.path} (readable by others: mode ${admin.mode.toString(8)}; ` +
      'chmod 600 it); give --admin-token or COINOP_ADMIN_TOKEN to set your own',
  );
}
