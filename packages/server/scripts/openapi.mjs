// Writes the OpenAPI document to docs/reference/openapi.json, built from the compiled server
// exactly as the test in test/http/openapi.test.ts builds it. Run through `npm run openapi`.
import { randomBytes } from 'node:crypto';
import { writeFile, mkdir } from 'node:fs/promises';
import { buildApi } from '../dist/app.js';
import { SecretBox } from '../dist/credentials/secret-box.js';
import { testConfig } from '../dist/config.js';
import { renderOpenApi } from '../dist/http/openapi.js';
import { systemClock, uuidIds } from '../dist/ids.js';
import { migrate } from '../dist/store/migrate.js';
import { openPglite } from '../dist/store/pglite.js';

// An optional argument writes elsewhere (to compare by hand without touching the committed file).
const target = process.argv[2]
  ? new URL(process.argv[2], `file://${process.cwd()}/`)
  : new URL('../../../docs/reference/openapi.json', import.meta.url);

const db = await openPglite(undefined);
try {
  await migrate(db);
  const app = await buildApi(testConfig(), {
    db,
    clock: systemClock,
    ids: uuidIds,
    writeTokenKey: randomBytes(32),
    secrets: new SecretBox(randomBytes(32)),
    adminToken: randomBytes(16).toString('hex'),
  });
  await app.ready();
  await mkdir(new URL('.', target), { recursive: true });
  await writeFile(target, renderOpenApi(app));
  await app.close();
  console.log(`wrote ${target.pathname}`);
} finally {
  await db.close();
}
