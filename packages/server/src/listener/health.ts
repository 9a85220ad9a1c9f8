import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { knownMigrations, migrationState } from '../store/migrate.js';
import type { Db } from '../store/db.js';
import { databaseUnavailableIn } from '../store/errors.js';
import { ApiTags, Security } from './openapi.js';

/**
 * `/healthz` and `/readyz` for a load balancer or an orchestrator (public: they say nothing a
 * visitor could use). Live: the process answers. Ready: its database answers and has every
 * migration this code knows, unchanged (and perhaps newer ones: a rolling upgrade under way).
 */

/** How `/readyz` names a schema a newer coinop migrated (still ready: see below). */
const NEWER_SCHEMA = 'newer than this code (a newer coinop migrated it; replace this process)';
/**
 * What the web listener's `/readyz` says of the database it has not: it stays ready while it
 * answers, since its pages need none and a shared database's outage would otherwise take every
 * web listener out of rotation at once (docs/operating/deploy.md).
 */
const NOT_CHECKED =
  "not checked: the web listener has none (probe the API's and the sign-in service's /readyz)";

const Health = Type.Object({ status: Type.Literal('ok') });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    database: Type.Union([Type.Literal('ok'), Type.String()], {
      description: '`ok`, or why the database is not usable; on the web listener, `not checked: …`',
    }),
    migrations: Type.Union([Type.Literal('current'), Type.String()], {
      description:
        '`current`; or which migrations are missing or changed (not ready); or, still ready, ' +
        'which a newer coinop applied; on the web listener, `not checked`',
    }),
    load: Type.Optional(
      Type.String({
        description:
          'Present when the process is past an overload limit (`--overload-*`): which one. ' +
          'Other routes answer 503 `overloaded` meanwhile.',
      }),
    ),
  }),
});

/**
 * Registers both routes on a listener. `db` null: a listener without a database of its own (the
 * web listener, which serves files and forwards), ready while it answers and is not overloaded.
 */
export async function healthRoutes(app: FastifyInstance, db: Db | null): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // Read once per listener, and only by one with a database to compare with.
  const known = db === null ? [] : await knownMigrations();
  r.get(
    '/healthz',
    {
      schema: {
        operationId: 'checkLiveness',
        security: Security.none,
        tags: [ApiTags.operations],
        summary: 'Liveness: the process answers',
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  r.get(
    '/readyz',
    {
      schema: {
        operationId: 'checkReadiness',
        security: Security.none,
        tags: [ApiTags.operations],
        summary: 'Readiness: the database answers and its schema is this code’s',
        description: '503 with the failing check when not ready.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      let database = db === null ? NOT_CHECKED : 'ok';
      let migrations = db === null ? 'not checked' : 'current';
      if (db !== null) {
        try {
          const state = await migrationState(db, known);
          const files = (list: readonly { file: string }[]) => list.map((m) => m.file).join(', ');
          if (state.pending.length > 0) migrations = `missing: ${files(state.pending)}`;
          else if (state.unknown.length > 0) {
            // Ready all the same: migrations only add to the schema, so this process serves on
            // until a rolling upgrade replaces it. Taking every old process out at once would
            // leave no one serving while the new ones start.
            migrations = `${NEWER_SCHEMA}: ${files(state.unknown)}`;
          } else if (state.changed.length > 0) {
            migrations = `changed since applied: ${files(state.changed.map((c) => c.migration))}`;
          } else if (state.legacy) migrations = 'recorded by an older coinop: not adopted yet';
        } catch (error) {
          const why = databaseUnavailableIn(error)?.reason ?? (error as Error).message;
          database = `unreachable: ${why}`;
          migrations = 'unknown';
        }
      }
      const load = app.hasDecorator('overload') ? app.overload() : null;
      const schemaServes = migrations === 'current' || migrations.startsWith(NEWER_SCHEMA);
      const ready = (db === null || (database === 'ok' && schemaServes)) && load === null;
      reply.code(ready ? 200 : 503);
      return {
        status: ready ? ('ready' as const) : ('not_ready' as const),
        checks: { database, migrations, ...(load === null ? {} : { load: `overloaded: ${load}` }) },
      };
    },
  );
}
