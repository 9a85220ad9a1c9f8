import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerTransferPage } from '@coinop/protocol';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { runCli } from './run-cli.js';

/** Issue 31: the ledger's transfers from the command line, as the console lists them. */
describe('coinop admin hst transfers against a running server (PGlite on disk)', () => {
  let dataDir: string;
  let server: RunningServer;
  let common: string[];

  const admin = async (...args: string[]) => {
    const run = await runCli(['admin', ...args, ...common]);
    return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-cli-ledger-'));
    server = await startServer(testConfig({ apiPort: 0, dataDir }));
    common = ['--server', server.url, '--data-dir', dataDir];
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists a player's transfers newest first, pages with --cursor and names a bad filter", async () => {
    const wallet = `0x${'7'.repeat(40)}`;
    const created = await admin('player', 'create', '--wallet', wallet, '--name', 'Seven');
    expect(created.code, created.stderr).toBe(0);
    const first = await admin('hst', 'mint', '--account', wallet, '--amount', '3');
    const second = await admin('hst', 'mint', '--account', wallet, '--amount', '0.00000001');
    expect([first.code, second.code]).toEqual([0, 0]);

    const page = await admin('hst', 'transfers', '--player', wallet, '--limit', '1');
    expect(page).toMatchObject({ code: 0, stderr: '' });
    const answer = page.json as LedgerTransferPage;
    expect(answer.transfers).toEqual([
      expect.objectContaining({
        id: second.json.transferId,
        kind: 'posted',
        reason: 'mint',
        amount: '0.00000001',
        debit: expect.objectContaining({ kind: 'mint', label: 'Mint' }),
        credit: expect.objectContaining({
          kind: 'player',
          label: 'Seven',
          playerId: created.json.playerId,
        }),
      }),
    ]);
    expect(answer.nextCursor).not.toBeNull();
    const older = await admin(
      'hst',
      'transfers',
      '--player',
      wallet,
      '--cursor',
      answer.nextCursor!,
    );
    expect((older.json as LedgerTransferPage).transfers.map((t) => [t.id, t.amount])).toEqual([
      [first.json.transferId, '3'],
    ]);
    expect((older.json as LedgerTransferPage).nextCursor).toBeNull();

    const bad = await admin('hst', 'transfers', '--from', 'yesterday');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'coinop: from must be an RFC 3339 time such as 2026-11-28T23:30:00Z, got "yesterday"\n',
    );
  });
});
