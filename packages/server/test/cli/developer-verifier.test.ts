import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { cleanEnv, runCli } from './run-cli.js';

// Issue 30: `coinop developer verifier upload|check`, the built CLI against a running arcade,
// with the developer's API key from a file.

const VERIFIER = `export function verify({ replay }) {
  return JSON.parse(replay).reduce((sum, move) => sum + move, 0);
}
`;

describe('coinop developer verifier against a running server', () => {
  let dir: string;
  let server: RunningServer;
  let gameId: string;
  let common: string[];
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-developer-cli-'));
    server = await startServer(
      testConfig({ apiPort: 0, dataDir: dir, adminToken: 'developer-cli-admin' }),
    );
    const created = await server.api.inject({
      method: 'POST',
      url: '/admin/developers',
      headers: { authorization: 'Bearer developer-cli-admin' },
      payload: { wallet: `0x${'d'.repeat(40)}` },
    });
    const developer = created.json<{ developerId: string; apiKey: string }>();
    gameId = (
      await registerGame(server.api.arcade, { developerId: developer.developerId, name: 'Sum' }, [
        { name: 'Bronze', cost: 1 },
      ])
    ).id;
    await writeFile(file('api-key'), `${developer.apiKey}\n`);
    await writeFile(file('verifier.js'), VERIFIER);
    await writeFile(file('broken.js'), 'export function verify() {\n  return (;\n}\n');
    await writeFile(file('replay.json'), '[1, 2, 3]');
    common = ['--game', gameId, '--server', server.url, '--api-key-file', file('api-key')];
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('uploads a verifier and checks an honest and a forged replay, by exit code', async () => {
    const upload = await runCli([
      'developer',
      'verifier',
      'upload',
      file('verifier.js'),
      ...common,
    ]);
    expect(upload).toMatchObject({ code: 0, stderr: '' });
    expect(upload.stdout).toMatch(
      new RegExp(
        `^verifier\\.js is version 1 of the game's verifier \\(${Buffer.byteLength(VERIFIER)} bytes, sha256 [0-9a-f]{64}\\)\\n$`,
      ),
    );
    const check = (score: string) =>
      runCli([
        'developer',
        'verifier',
        'check',
        '--replay',
        file('replay.json'),
        '--score',
        score,
        ...common,
      ]);
    const honest = await check('6');
    expect(honest.code).toBe(0);
    expect(honest.stdout).toMatch(
      /^accepted: the replay earns 6 \(version 1, seed [0-9a-f]{64}, \d+ ms\)\n$/,
    );
    const forged = await check('4200');
    expect(forged.code).toBe(1);
    expect(forged.stdout).toMatch(
      /^refused \(mismatch\): the replay earns 6, not 4200 \(version 1, seed [0-9a-f]{64}, \d+ ms\)\n$/,
    );
  });

  it("says the arcade's reason for a module that does not load, and what is missing", async () => {
    const broken = await runCli(['developer', 'verifier', 'upload', file('broken.js'), ...common]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^coinop: the module does not load: SyntaxError: .+ \(line 2, column \d+\)\n$/,
    );
    const noKey = await runCli(
      [
        'developer',
        'verifier',
        'upload',
        file('verifier.js'),
        '--game',
        gameId,
        '--server',
        server.url,
      ],
      cleanEnv(),
    );
    expect(noKey).toMatchObject({
      code: 2,
      stderr:
        "coinop: no API key: give --api-key-file (COINOP_API_KEY_FILE) or COINOP_API_KEY; create one in the developer portal's API keys\n",
    });
    const missing = await runCli(['developer', 'verifier', 'upload', file('nope.js'), ...common]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: `coinop: cannot read ${file('nope.js')}: ENOENT\n`,
    });
  });
});
