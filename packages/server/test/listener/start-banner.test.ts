import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startBanner } from '../../src/start-banner.js';

const facts = {
  adminToken: { file: '/data/admin-token', generated: false },
  demo: false,
  demoClientFile: null,
  devChain: null,
  workers: 1,
  games: [],
};

describe('the start banner', () => {
  it('lists the operator console on the web listener, beside the arcade', () => {
    const { message, fields } = startBanner({
      ...facts,
      urls: {
        web: 'http://127.0.0.1:8082',
        api: 'http://127.0.0.1:8080',
        auth: 'http://127.0.0.1:8081',
      },
    });
    expect(message).toBe(
      [
        'coinop is ready',
        '  arcade       http://127.0.0.1:8082  (the web app: start here)',
        '  operator     http://127.0.0.1:8082/admin  (the operator console: paste the admin token)',
        '  API          http://127.0.0.1:8080  (docs http://127.0.0.1:8080/docs)',
        '  sign-in      http://127.0.0.1:8081',
        '  admin token  in /data/admin-token',
      ].join('\n'),
    );
    expect(fields['urls']).toEqual({
      web: 'http://127.0.0.1:8082',
      api: 'http://127.0.0.1:8080',
      auth: 'http://127.0.0.1:8081',
      docs: 'http://127.0.0.1:8080/docs',
      console: 'http://127.0.0.1:8082/admin',
    });
  });

  it('names no console where the web listener has no API behind it in this process', () => {
    const { message, fields } = startBanner({
      ...facts,
      adminToken: null,
      urls: { web: 'https://arcade.example' },
    });
    expect(message).toBe(
      'coinop is ready\n  arcade  https://arcade.example  (the web app: start here)',
    );
    expect(fields['urls']).toEqual({ web: 'https://arcade.example' });
  });

  // Issue 28: `npm start` serves the two example games beside the arcade, and the banner now
  // lists them (`--banner-game`, which the root start script passes).
  it('lists the games served beside coinop under the addresses', () => {
    const { message, fields } = startBanner({
      ...facts,
      urls: { web: 'http://127.0.0.1:8082', api: 'http://127.0.0.1:8080' },
      games: [
        { name: 'reaction', url: 'http://127.0.0.1:8090' },
        { name: 'high-low', url: 'http://127.0.0.1:8091' },
      ],
    });
    expect(message).toBe(
      [
        'coinop is ready',
        '  arcade       http://127.0.0.1:8082  (the web app: start here)',
        '  operator     http://127.0.0.1:8082/admin  (the operator console: paste the admin token)',
        '  API          http://127.0.0.1:8080  (docs http://127.0.0.1:8080/docs)',
        '  games        http://127.0.0.1:8090  (reaction)',
        '               http://127.0.0.1:8091  (high-low)',
        '  admin token  in /data/admin-token',
      ].join('\n'),
    );
    expect(fields['games']).toEqual([
      { name: 'reaction', url: 'http://127.0.0.1:8090' },
      { name: 'high-low', url: 'http://127.0.0.1:8091' },
    ]);
  });
});

describe('--banner-game', () => {
  const games = (flag: string | undefined, env: Record<string, string> = {}) =>
    loadConfig({ bannerGames: flag }, env).bannerGames;

  it('takes name=url pairs from the flag (repeats joined by commas) or the environment', () => {
    expect(games(undefined)).toEqual([]);
    expect(games('reaction=http://127.0.0.1:8090,High Low 2=https://games.example/hl?x=1')).toEqual(
      [
        { name: 'reaction', url: 'http://127.0.0.1:8090' },
        { name: 'High Low 2', url: 'https://games.example/hl?x=1' },
      ],
    );
    expect(games(undefined, { COINOP_BANNER_GAMES: 'high-low=http://127.0.0.1:8091' })).toEqual([
      { name: 'high-low', url: 'http://127.0.0.1:8091' },
    ]);
  });

  it('refuses anything else, naming the flag and the entry', () => {
    for (const entry of [
      'reaction',
      '=http://127.0.0.1:8090',
      'reaction=',
      'reaction=127.0.0.1:8090',
      'reaction=ftp://127.0.0.1/',
      'reaction=javascript:alert(1)',
      `${'n'.repeat(41)}=http://127.0.0.1:8090`,
      'bad\u001bname=http://127.0.0.1:8090',
    ]) {
      expect(() => games(entry), entry).toThrow(ConfigError);
      expect(() => games(entry), entry).toThrow(
        '--banner-game (COINOP_BANNER_GAMES) takes name=url: a name of up to 40 letters, ' +
          'digits, spaces, dots, dashes or underscores, and an http(s) URL, like ' +
          `reaction=http://127.0.0.1:8090; got ${entry}`,
      );
    }
  });
});
