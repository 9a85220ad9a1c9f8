import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A closing server waits for every connection to end. Node closes those idle when the close
 * begins, but not one on which a request has begun to arrive and none is being answered (a client
 * that went away mid-request): that one lasts until the headers timeout (60 s, checked every
 * 30 s). Nothing was acknowledged on such a connection, so from the moment the server closes,
 * every connection with no request being answered is ended, again as more fall so, until the
 * close is done. A request being answered always finishes.
 */
export function closeUnansweredOnClose(app: FastifyInstance): void {
  const answering = new Map<Socket, number>();
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      answering.delete(socket);
    });
  });
  const count = (socket: Socket, by: number) => {
    const now = (answering.get(socket) ?? 0) + by;
    if (now > 0) answering.set(socket, now);
    else answering.delete(socket);
  };
  // A plain listener beside Fastify's own, not an async hook: this runs on every request,
  // the play/score path's included, and must cost next to nothing there.
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    count(socket, 1);
    // The response's close: it was sent whole, or its connection ended.
    response.once('close', () => count(socket, -1));
  });
  let sweep: NodeJS.Timeout | undefined;
  const endUnanswered = () => {
    for (const socket of sockets) if (!answering.has(socket)) socket.destroy();
  };
  app.addHook('preClose', async () => {
    sweep = setInterval(endUnanswered, 100);
    sweep.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweep));
}
