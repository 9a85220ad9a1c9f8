import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { spawn } from 'node:child_process';
import { CLI_PATH, cleanEnv } from '../cli/run-cli.js';

describe('the log format', () => {
  it('is pretty on a terminal and JSON elsewhere, unless --log-format says', () => {
    expect(loadConfig({}, {}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, {}, false).logFormat).toBe('json');
    expect(loadConfig({ logFormat: 'json' }, {}, true).logFormat).toBe('json');
    expect(loadConfig({}, { COINOP_LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ logFormat: 'yaml' }, {}, false)).toThrow(
      '--log-format (COINOP_LOG_FORMAT) must be json or pretty, got yaml',
    );
  });

  it('prints the start banner as readable lines with --log-format pretty', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coinop-pretty-'));
    try {
      const child = spawn(
        process.execPath,
        [CLI_PATH, 'serve', '--api-port', '0', '--auth-port', '0', '--web-port', '0'].concat([
          '--data-dir',
          dir,
          '--log-format',
          'pretty',
        ]),
        { env: cleanEnv(), stdio: 'pipe' },
      );
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      for (let waited = 0; !stdout.includes('admin token'); waited += 100) {
        if (waited > 60_000) throw new Error(`no banner in: ${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      child.kill('SIGTERM');
      // The output goes with each failure: a line between the banner's rows says why.
      expect(await exited, stdout).toBe(0);
      // Not JSON: a level, the message, and the banner's rows beneath it.
      expect(stdout, stdout).not.toMatch(/^\{/m);
      expect(stdout, stdout).toMatch(
        /INFO: coinop is ready\n {2}arcade {7}http:\/\/127\.0\.0\.1:\d+ {2}\(the web app: start here\)\n {2}operator {5}http:\/\/127\.0\.0\.1:\d+\/admin {2}\(the operator console: paste the admin token\)\n {2}API {10}http:\/\/127\.0\.0\.1:\d+ {2}\(docs http:\/\/127\.0\.0\.1:\d+\/docs\)\n {2}sign-in {6}http:\/\/127\.0\.0\.1:\d+\n {2}admin token {2}generated now, in /,
      );
      expect(stdout).not.toContain('listening on');
      // Issue 28: each start step is one readable line with its duration, its JSON fields left out.
      expect(stdout).toMatch(
        /INFO: database: created the embedded database in \S+ \((< 0\.1|\d+\.\d) s\)\n/,
      );
      expect(stdout).toMatch(/INFO: schema: applied \d+ migrations \((< 0\.1|\d+\.\d) s\)\n/);
      expect(stdout).not.toMatch(/startStep|durationMs/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
