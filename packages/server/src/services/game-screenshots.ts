import { CoinopError, type Clock, type Ids } from '@coinop/core';
import type { Db } from '../store/db.js';
import { findGame, type GameRecord } from '../store/games.js';
import {
  deleteScreenshot,
  findScreenshot,
  insertScreenshot,
  listScreenshots,
  lockScreenshotSlots,
  type ScreenshotSummary,
  type StoredScreenshot,
} from '../store/game-screenshots.js';
import { decodeUploadedImage } from './cover-uploads.js';

/** The most screenshots a game's page shows: a gallery, not an image host. */
export const SCREENSHOTS_MAX = 8;
/** Alt text: enough for a sentence a screen reader speaks. */
export const SCREENSHOT_ALT_MAX = 200;

/** Where a screenshot is served; the version query changes with the image, for caches. */
export function screenshotUrl(
  webOrigin: string | undefined,
  shot: Pick<ScreenshotSummary, 'gameId' | 'id' | 'etag'>,
): string {
  const path = `/api/catalog/games/${shot.gameId}/screenshots/${shot.id}?v=${shot.etag.replace(/"/g, '')}`;
  return webOrigin === undefined ? path : `${webOrigin}${path}`;
}

/**
 * A game's screenshot gallery (issue 31): its developer uploads and deletes, checked as an
 * uploaded cover is (PNG or JPEG, 1920×1080, 2 MB); anyone sees a published game's.
 */
export class GameScreenshots {
  readonly #arcade: { readonly db: Db; readonly clock: Clock; readonly ids: Ids };

  constructor(deps: { readonly db: Db; readonly clock: Clock; readonly ids: Ids }) {
    this.#arcade = deps;
  }

  /** The game's screenshots in display order; the caller decides who may see the game. */
  list(gameId: string): Promise<ScreenshotSummary[]> {
    return listScreenshots(this.#arcade.db, gameId);
  }

  /** The developer's own game's screenshots; 404 game_not_found for anyone else's. */
  async listOwn(developerId: string, gameId: string): Promise<ScreenshotSummary[]> {
    await this.#ownGame(developerId, gameId);
    return this.list(gameId);
  }

  /**
   * Adds a screenshot after the last; 409 screenshot_limit_reached at `SCREENSHOTS_MAX`. The
   * image is checked before anything is read or written; the count under the game's row lock.
   */
  async add(
    developerId: string,
    gameId: string,
    input: { image: string; alt: string },
  ): Promise<ScreenshotSummary> {
    const alt = input.alt.trim();
    if (alt.length === 0) {
      throw new CoinopError('validation_failed', 'alt must describe the picture, not be blank', {
        details: { field: 'alt' },
      });
    }
    const upload = decodeUploadedImage(input.image, 'image');
    await this.#ownGame(developerId, gameId);
    const { db, clock, ids } = this.#arcade;
    return db.transaction(async (tx) => {
      const slots = await lockScreenshotSlots(tx, gameId);
      if (slots.count >= SCREENSHOTS_MAX) {
        throw new CoinopError(
          'screenshot_limit_reached',
          `game ${gameId} already has ${SCREENSHOTS_MAX} screenshots, the most a game may show`,
          { details: { gameId, max: SCREENSHOTS_MAX } },
        );
      }
      return insertScreenshot(tx, clock, {
        id: ids.next(),
        gameId,
        position: slots.nextPosition,
        altText: alt,
        ...upload,
      });
    });
  }

  /** Deletes one of the developer's screenshots; 404 screenshot_not_found when there is none. */
  async remove(developerId: string, gameId: string, screenshotId: string): Promise<void> {
    await this.#ownGame(developerId, gameId);
    if (!(await deleteScreenshot(this.#arcade.db, gameId, screenshotId))) {
      throw notFound(gameId, screenshotId);
    }
  }

  /** One screenshot's image, for any game (the portal shows an unpublished game's). */
  async image(gameId: string, screenshotId: string): Promise<StoredScreenshot> {
    const shot = await findScreenshot(this.#arcade.db, gameId, screenshotId);
    if (!shot) throw notFound(gameId, screenshotId);
    return shot;
  }

  async #ownGame(developerId: string, gameId: string): Promise<GameRecord> {
    const game = await findGame(this.#arcade.db, gameId);
    if (!game || game.developerId !== developerId) {
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    }
    return game;
  }
}

function notFound(gameId: string, screenshotId: string): CoinopError {
  return new CoinopError(
    'screenshot_not_found',
    `game ${gameId} has no screenshot ${screenshotId}`,
    { details: { gameId, screenshotId } },
  );
}

export type { ScreenshotSummary } from '../store/game-screenshots.js';
