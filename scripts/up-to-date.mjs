// Runs a build step unless its inputs are what they were at its last successful run and its
// outputs are all there. The inputs are hashed (names and contents), not compared by mtime: a
// checkout, a `git stash` or a copied tree changes mtimes without changing anything to build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The files at a path under root: the file itself, or every file under a directory. */
function filesAt(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** One hash over the names and contents of every file at the paths (files or directories). */
export function hashInputs(root, paths) {
  const hash = createHash('sha256');
  const files = paths.flatMap((path) => filesAt(root, path)).sort();
  for (const file of files) {
    hash.update(file).update('\0');
    hash.update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Runs step.run() (which may return a promise) unless the stamp in stampDir matches the inputs'
 * hash and every output exists (or force is set); on success, stamps the hash taken before the
 * run, so an input edited while the step ran builds again next time. Resolves to whether the step
 * ran.
 */
export async function runUnlessUpToDate({ root, stampDir, step, force = false }) {
  const stampFile = join(stampDir, `${step.name.replaceAll(/[^a-z0-9]+/gi, '-')}.sha256`);
  const hash = hashInputs(root, step.inputs);
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : null;
  const outputsExist = step.outputs.every((output) => existsSync(join(root, output)));
  if (!force && stamp === hash && outputsExist) return false;
  await step.run();
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile, hash);
  return true;
}
