import { describe, expect, it } from 'vitest';
import { startBanner } from '../../src/start-banner.js';

const facts = {
  adminToken: { file: '/data/admin-token', generated: false },
  demo: false,
  demoClientFile: null,
  devChain: null,
  workers: 1,
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
});
