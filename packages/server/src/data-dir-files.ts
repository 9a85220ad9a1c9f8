import { randomBytes } from 'node:crypto';
import { link, unlink, writeFile } from 'node:fs/promises';

/**
 * Creates `path` with `content` (mode 0600) unless it exists; true when this call created it.
 * The file appears whole or not at all (written aside, then hard-linked into place), so a
 * process starting at the same moment never reads it half-written.
 */
export async function createFileOnce(path: string, content: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(aside, content, { mode: 0o600, flag: 'wx' });
  try {
    await link(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(aside);
  }
}
