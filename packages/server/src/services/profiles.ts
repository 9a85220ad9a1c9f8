import {
  checkDisplayName,
  DISPLAY_NAME_PROBLEMS,
  displayNameKey,
  formatHst,
  normalizeDisplayName,
  type PlayerIdentity,
  type ProfileReset,
  type PublicPlayerProfile,
} from '@coinop/protocol';
import { CoinopError } from '@coinop/core';
import { notifyBoardChanged, notifyGameChanged } from '../store/cache-notices.js';
import type { Queryable } from '../store/db.js';
import { defaultPlayerName, findPlayer, type PlayerRecord } from '../store/players.js';
import { publicPrizes, publicStandings } from '../store/player-pages.js';
import {
  boardsPlayedBy,
  claimName,
  findAvatar,
  lockPlayerName,
  nameChosen,
  recordProfileReset,
  removeAvatar,
  saveAvatar,
  type StoredAvatar,
} from '../store/profiles.js';
import type { ArcadeServices } from './arcade-services.js';
import { decodeAvatarImage } from './avatar-uploads.js';

/** The public page lists at most this many tournament prizes, newest first. */
const PRIZES_SHOWN_MAX = 50;

/**
 * Players' names and avatars (docs/concepts/profiles.md): chosen by the player, reset by the
 * operator, shown on the public player page. A change reaches every board that shows the player:
 * the boards they played on are announced changed, so every process drops its copies.
 */
export class ProfileService {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /** The player's name and avatar; `player_not_found` when no player has the id. */
  async identity(playerId: string): Promise<PlayerIdentity> {
    const player = await this.#player(playerId);
    return {
      playerId,
      name: player.name,
      avatar: this.#arcade.avatars.urlOf(player.id, player.avatarUrl),
      nameChosen: await nameChosen(this.#arcade.db, playerId),
      avatarUploaded: player.avatarUrl !== null,
    };
  }

  /** Gives the player the name they chose; `name_invalid` or `name_taken` when it may not be. */
  async setName(playerId: string, raw: string): Promise<PlayerIdentity> {
    const problem = checkDisplayName(raw);
    if (problem !== null) {
      throw new CoinopError('name_invalid', `name: ${DISPLAY_NAME_PROBLEMS[problem]}`, {
        details: { field: 'name', reason: problem },
      });
    }
    const name = normalizeDisplayName(raw);
    await this.#change(playerId, async (tx) => {
      if (!(await claimName(tx, { playerId, name, key: displayNameKey(name) }))) {
        throw this.#notFound(playerId);
      }
    });
    return this.identity(playerId);
  }

  /** Stores an uploaded avatar (a data URL) as the player's; `avatar_invalid` when refused. */
  async setAvatar(playerId: string, dataUrl: string): Promise<PlayerIdentity> {
    const avatar = decodeAvatarImage(playerId, dataUrl);
    const url = `${this.#arcade.config.publicUrl}/catalog/players/${playerId}/avatar?v=${avatar.etag.replace(/"/g, '')}`;
    await this.#change(playerId, (tx) => saveAvatar(tx, avatar, url, this.#arcade.clock.now()));
    return this.identity(playerId);
  }

  /** Back to the generated identicon. */
  async removeAvatar(playerId: string): Promise<PlayerIdentity> {
    await this.#change(playerId, async (tx) => {
      await removeAvatar(tx, playerId);
    });
    return this.identity(playerId);
  }

  /** The operator's reset of an abusive name and avatar, recorded with the reason. */
  async reset(player: PlayerRecord, reason: string): Promise<ProfileReset> {
    const now = this.#arcade.clock.now();
    const previousName = await this.#change(player.id, async (tx) => {
      const name = (await lockPlayerName(tx, player.id)) ?? player.name;
      await recordProfileReset(tx, {
        id: this.#arcade.ids.next(),
        playerId: player.id,
        previousName: name,
        defaultName: defaultPlayerName(player.wallet, player.id),
        reason,
        now,
      });
      return name;
    });
    return {
      ...(await this.identity(player.id)),
      previousName,
      reason,
      resetAt: now.toISOString(),
    };
  }

  /** The uploaded avatar's bytes; `avatar_not_found` when the player has none. */
  async avatarImage(playerId: string): Promise<StoredAvatar> {
    const avatar = await findAvatar(this.#arcade.db, playerId);
    if (avatar === null) {
      throw new CoinopError('avatar_not_found', `player ${playerId} has no uploaded avatar`, {
        details: { playerId },
      });
    }
    return avatar;
  }

  /** What anyone may see of a player: no wallet, no balance, no unpublished game. */
  async publicProfile(playerId: string): Promise<PublicPlayerProfile> {
    const identity = await this.identity(playerId);
    const player = await this.#player(playerId);
    const db = this.#arcade.db;
    const [boards, prizes] = await Promise.all([
      publicStandings(db, playerId),
      publicPrizes(db, playerId, PRIZES_SHOWN_MAX),
    ]);
    return {
      ...identity,
      memberSince: player.createdAt.toISOString(),
      boards,
      tournaments: prizes.map(({ prizeUnits, closedAt, ...rest }) => ({
        ...rest,
        prize: formatHst(prizeUnits),
        closedAt: closedAt.toISOString(),
      })),
    };
  }

  /**
   * Runs a change in one transaction that also announces the player's boards changed (delivered
   * at commit to every process), then drops this process's copies at once.
   */
  async #change<T>(playerId: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const arcade = this.#arcade;
    const { result, boards } = await arcade.db.transaction(async (tx) => {
      const result = await work(tx);
      const boards = await boardsPlayedBy(tx, playerId);
      for (const board of boards) await notifyBoardChanged(tx, board.leaderboardId);
      for (const gameId of new Set(boards.map((b) => b.gameId))) {
        await notifyGameChanged(tx, gameId);
      }
      return { result, boards };
    });
    for (const board of boards) {
      arcade.plays.forgetBoard(board.leaderboardId);
      arcade.reads.invalidate(board.gameId);
    }
    return result;
  }

  async #player(playerId: string): Promise<PlayerRecord> {
    const player = await findPlayer(this.#arcade.db, playerId);
    if (player === null) throw this.#notFound(playerId);
    return player;
  }

  #notFound(playerId: string): CoinopError {
    return new CoinopError('player_not_found', `no player has id ${playerId}`, {
      details: { playerId },
    });
  }
}
