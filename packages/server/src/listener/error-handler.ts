import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCodes, type ErrorCode, type Problem } from '@coinop/protocol';
import { CoinopError } from '@coinop/core';
import { DEFAULTS } from '../config.js';
import type { DatabaseAvailability } from '../store/availability.js';
import {
  databaseOutOfResourcesIn,
  databaseUnavailableIn,
  statementCancelledIn,
} from '../store/errors.js';
import { HTTP_STATUS } from './errors.js';
import { validationText } from './validation-messages.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The code of the problem this reply sends, for the metrics; null for any other answer. */
    problemCode: ErrorCode | null;
  }
}

const PROBLEM_TYPE_BASE = 'https://coinop.dev/errors/';

export function problem(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): Problem {
  const body: Problem = {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: ErrorCodes[code],
    status: HTTP_STATUS[code],
    detail: message,
    code,
    message,
  };
  if (details !== undefined) body.details = details;
  return body;
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  reply.problemCode = body.code;
  return reply.code(body.status).type('application/problem+json').send(body);
}

/** How a listener with a database answers while that database cannot be reached. */
export interface DatabaseRefusal {
  /** Told of each request refused, for the outage's summary in the log. */
  readonly availability: DatabaseAvailability | null;
  /** What the 503's Retry-After says. */
  readonly retryAfterSeconds: number;
}

/** A database out of resources, or cancelling statements, is logged at most this often. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** A listener that meets an unreachable database without being told how to answer. */
const DEFAULT_REFUSAL: DatabaseRefusal = {
  availability: null,
  retryAfterSeconds: DEFAULTS.databaseRetryAfterSeconds,
};

/**
 * Renders every error as application/problem+json: domain errors by their code, schema failures
 * as 400 naming the field path, Fastify's own client errors by kind. A database that cannot be
 * reached is nobody's bug: 503 `service_unavailable` with Retry-After, and no log line (the
 * outage is logged once, when it starts: listener/database-outages.ts). A database out of disk or
 * memory, or one that cancelled the statement (a statement_timeout or lock_timeout), is not the
 * client's fault either: 503 too, logged at most once a minute (an error and a warning). Anything
 * else is a bug: a generic 500, logged in full with the request id; internals never reach the client.
 */
export function renderErrorsAsProblems(
  app: FastifyInstance,
  database: DatabaseRefusal = DEFAULT_REFUSAL,
): void {
  const lackLog = new EveryMinuteAtMost();
  const cancelLog = new EveryMinuteAtMost();
  /** 503 `service_unavailable` with Retry-After, `why` said before the retry's delay. */
  const refuse = (reply: FastifyReply, why: string) => {
    const { retryAfterSeconds } = database;
    reply.header('retry-after', retryAfterSeconds);
    return sendProblem(
      reply,
      problem('service_unavailable', `${why}; retry in ${retryAfterSeconds} s`, {
        retryAfterSeconds,
      }),
    );
  };
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lacking = databaseOutOfResourcesIn(error);
    if (lacking !== null) {
      if (lackLog.due()) {
        request.log.error(
          { reason: lacking.reason, reqId: request.id },
          `the database refuses work for lack of a resource (${lacking.reason}): requests that ` +
            'need it are answered 503 service_unavailable until it has room again',
        );
      }
      return refuse(reply, 'the database is out of resources');
    }
    const cancelled = statementCancelledIn(error);
    if (cancelled !== null) {
      if (cancelLog.due()) {
        request.log.warn(
          { reason: cancelled.reason, reqId: request.id },
          `the database cancelled a statement (${cancelled.reason}): a statement_timeout or ` +
            "lock_timeout on coinop's connections expired, or it was cancelled by hand; the " +
            'requests it cancels are answered 503 service_unavailable',
        );
      }
      return refuse(reply, 'the database did not finish in time');
    }
    if (databaseUnavailableIn(error) !== null) {
      database.availability?.refused();
      return refuse(reply, 'the database cannot be reached');
    }
    if (error instanceof CoinopError) {
      return sendProblem(reply, problem(error.code, error.message, error.details));
    }
    if (error.validation) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'body';
      const path = first ? fieldPath(where, first.instancePath, first.params) : where;
      const why = first ? validationText(first) : 'is invalid';
      return sendProblem(
        reply,
        problem('validation_failed', `${path} ${why}`, { field: path, in: where }),
      );
    }
    const clientError = fastifyClientError(error, request);
    if (clientError) return sendProblem(reply, clientError);
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendProblem(
      reply,
      problem('internal_error', `an internal error occurred (request ${request.id})`),
    );
  });
}

/** The API and sign-in listeners' errors as problems, and unknown routes as `route_not_found`. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, database: Partial<DatabaseRefusal>) => {
    renderErrorsAsProblems(app, { ...DEFAULT_REFUSAL, ...database });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(reply, problem('route_not_found', `no route ${request.method} ${request.url}`)),
    );
  },
);

function fieldPath(where: string, instancePath: string, params: Record<string, unknown>): string {
  const segments = instancePath.split('/').filter(Boolean);
  if (typeof params['missingProperty'] === 'string') segments.push(params['missingProperty']);
  if (typeof params['additionalProperty'] === 'string') segments.push(params['additionalProperty']);
  return segments.length === 0 ? where : segments.join('.');
}

function fastifyClientError(error: FastifyError, request: FastifyRequest): Problem | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem('malformed_json', `request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // The route's limit (a score route's is larger: it may carry a replay), else the listener's.
      const limitBytes = request.routeOptions.bodyLimit;
      return problem(
        'body_too_large',
        `request body is larger than the limit of ${limitBytes} bytes for this route`,
        { limitBytes },
      );
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem('unsupported_media_type', 'request body must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem('validation_failed', 'content-length does not match the body');
  }
  if (error.statusCode === 429) return problem('rate_limited', error.message);
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return problem('validation_failed', error.message);
  }
  return null;
}

/** Says when a repeated condition is worth a log line again: the first time, then once a minute. */
class EveryMinuteAtMost {
  #loggedAt = -Infinity;

  due(): boolean {
    const now = Date.now();
    if (now - this.#loggedAt < REFUSAL_LOG_INTERVAL_MS) return false;
    this.#loggedAt = now;
    return true;
  }
}
