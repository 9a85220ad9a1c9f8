// Writes the OpenAPI documents to docs/reference/: the arcade API's (openapi.json) and the sign-in
// service's (signin-openapi.json), built from the compiled server with the default settings,
// exactly as the test in test/http/openapi.test.ts builds them. Run through `npm run openapi`.
import { randomBytes } from 'node:crypto';
import { writeFile, mkdir } from 'node:fs/promises';
import { buildApi } from '../dist/app.js';
import { buildAuth } from '../dist/signin/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { renderOpenApi } from '../dist/listener/openapi.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { migrate } from '../dist/store/migrate.js';
import { openPglite } from '../dist/store/pglite.js';

// An optional argument names a directory to write to instead (to compare by hand without
// touching the committed files).
const directory = process.argv[2]
  ? new URL(`${process.argv[2].replace(/\/*$/, '')}/`, `file://${process.cwd()}/`)
  : new URL('../../../docs/reference/', import.meta.url);

const db = await openPglite(undefined);
try {
  await migrate(db);
  const config = testConfig();
  const deps = {
    db,
    clock: systemClock,
    ids: uuidIds,
    secrets: new SecretBox(randomBytes(32)),
  };
  const api = await buildApi(config, {
    ...deps,
    writeTokenKey: randomBytes(32),
    adminToken: randomBytes(16).toString('hex'),
  });
  const auth = await buildAuth(config, deps);
  await Promise.all([api.ready(), auth.ready()]);
  await mkdir(directory, { recursive: true });
  for (const [name, app] of [
    ['openapi.json', api],
    ['signin-openapi.json', auth],
  ]) {
    const target = new URL(name, directory);
    await writeFile(target, renderOpenApi(app));
    console.log(`wrote ${target.pathname}`);
  }
  await Promise.all([api.close(), auth.close()]);
} finally {
  await db.close();
}
