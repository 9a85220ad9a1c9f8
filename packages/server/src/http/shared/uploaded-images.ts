import type { FastifyReply, FastifyRequest } from 'fastify';

/** An image someone uploaded (a cover, a screenshot, an avatar), as the store keeps it. */
interface UploadedImage {
  readonly etag: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** The documented answers of a route serving an uploaded image of one of `contentTypes`. */
export function uploadedImageResponses(contentTypes: readonly string[]) {
  const binary = { schema: { type: 'string', format: 'binary' } };
  return {
    200: {
      description: 'The image',
      content: Object.fromEntries(contentTypes.map((type) => [type, binary])),
    },
    304: { description: 'Not modified', type: 'null' },
  };
}

/**
 * Sends an uploaded image that caches may keep five minutes, by its ETag: 304 when the client
 * already has these bytes. Its URL changes with the image, so a replaced one shows at once.
 */
export function sendUploadedImage(
  request: FastifyRequest,
  reply: FastifyReply,
  image: UploadedImage,
): FastifyReply {
  reply.header('cache-control', 'public, max-age=300').header('etag', image.etag);
  if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
  return reply.type(image.contentType).send(Buffer.from(image.bytes));
}
