// The admin API's wire types in @coinop/protocol against the server's TypeBox schemas, checked
// at compile time (npm run typecheck compiles this file; it has no runtime part): a schema and its
// protocol type cannot change alone. The other wire types are checked beside their schemas in
// src/http/; the admin console's are checked here, where they were first written twice (issue 29).
import type {
  AccountBalance,
  AdminDeveloper,
  AdminDeveloperList,
  AdminGame,
  AdminGameList,
  AdminPlayer,
  AdminPlayerList,
  ChainHalt,
  ChainHaltList,
  ChainReconciliation,
  ChainResumeRequest,
  ChainResumed,
  ChainStatus,
  ChainSurplus,
  ChainSurplusList,
  HstAudit,
  HstMinted,
  KeysRotated,
  PublishQueue,
  QueuedPublishRequest,
} from '@coinop/protocol';
import type { SchemaMatches } from '../../src/listener/wire-check.js';
import type {
  Halt,
  Halts,
  ResumeBody,
  Surplus,
  SurplusList,
} from '../../src/http/admin/admin-chain-halt-schemas.js';
import type { Resumed } from '../../src/http/admin/admin-chain-halts.js';
import type {
  AdminDeveloper as AdminDeveloperSchema,
  AdminGame as AdminGameSchema,
  DeveloperList,
  GameList,
  PlayerList,
  PlayerProfile,
} from '../../src/http/admin/admin-lookups.js';
import type {
  Audit,
  Balance,
  KeysRotated as KeysRotatedSchema,
  Minted,
} from '../../src/http/admin/admin-schemas.js';
import type {
  ChainReconciliation as ChainReconciliationSchema,
  ChainStatus as ChainStatusSchema,
} from '../../src/http/admin/admin-chain-schemas.js';
import type {
  QueueSchema,
  QueuedRequestSchema,
} from '../../src/http/shared/publish-request-schemas.js';

declare const _game: SchemaMatches<typeof AdminGameSchema, AdminGame>;
declare const _games: SchemaMatches<typeof GameList, AdminGameList>;
declare const _player: SchemaMatches<typeof PlayerProfile, AdminPlayer>;
declare const _players: SchemaMatches<typeof PlayerList, AdminPlayerList>;
declare const _developer: SchemaMatches<typeof AdminDeveloperSchema, AdminDeveloper>;
declare const _developers: SchemaMatches<typeof DeveloperList, AdminDeveloperList>;
declare const _queued: SchemaMatches<typeof QueuedRequestSchema, QueuedPublishRequest>;
declare const _queue: SchemaMatches<typeof QueueSchema, PublishQueue>;
declare const _minted: SchemaMatches<typeof Minted, HstMinted>;
declare const _balance: SchemaMatches<typeof Balance, AccountBalance>;
declare const _keys: SchemaMatches<typeof KeysRotatedSchema, KeysRotated>;
declare const _reconciliation: SchemaMatches<typeof ChainReconciliationSchema, ChainReconciliation>;
declare const _audit: SchemaMatches<typeof Audit, HstAudit>;
declare const _chain: SchemaMatches<typeof ChainStatusSchema, ChainStatus>;
declare const _halt: SchemaMatches<typeof Halt, ChainHalt>;
declare const _halts: SchemaMatches<typeof Halts, ChainHaltList>;
declare const _surplus: SchemaMatches<typeof Surplus, ChainSurplus>;
declare const _surplusList: SchemaMatches<typeof SurplusList, ChainSurplusList>;
declare const _resume: SchemaMatches<typeof ResumeBody, ChainResumeRequest>;
declare const _resumed: SchemaMatches<typeof Resumed, ChainResumed>;

// The check can fail: a protocol type missing a field, or with one more, is refused.
// @ts-expect-error AdminGame without its name is not the schema's shape
declare const _missingField: SchemaMatches<typeof AdminGameSchema, Omit<AdminGame, 'name'>>;
// @ts-expect-error nor is one with an extra field
declare const _extraField: SchemaMatches<typeof Balance, AccountBalance & { extra: string }>;
