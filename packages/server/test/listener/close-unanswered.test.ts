import { connect } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeUnansweredOnClose } from 'coinop/listener/close-unanswered.js';

/**
 * A closing server ends the connections on which nothing is being answered (a client gone
 * mid-request), which Node would keep until the headers timeout, and still finishes a request it
 * is answering.
 */
describe('closing with connections open', () => {
  it('ends a half-sent request at once and finishes the one being answered', async () => {
    const app = Fastify();
    closeUnansweredOnClose(app);
    let finish: () => void = () => undefined;
    const answering = new Promise<void>((resolve) => (finish = resolve));
    let started: () => void = () => undefined;
    const begun = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await answering;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    // A client that sent half a request and went quiet.
    const half = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => half.once('connect', resolve));
    half.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const halfEnded = new Promise<void>((resolve) => half.once('close', () => resolve()));
    // A request being answered.
    const slow = fetch(`http://127.0.0.1:${port}/slow`);
    await begun;

    const closed = app.close();
    await halfEnded;
    finish();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    expect(app.server.listening).toBe(false);
  });
});
