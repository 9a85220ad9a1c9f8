import { Type } from '@sinclair/typebox';
import type { GameScreenshot, GameScreenshotList } from '@coinop/protocol';
import { screenshotUrl, type ScreenshotSummary } from '../../services/game-screenshots.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';

/** A game's screenshots as the catalog and the developer portal answer them (issue 31). */

export const ScreenshotSchema = Type.Object({
  id: Uuid('The screenshot'),
  url: Type.String({ description: 'Where the image is served' }),
  alt: Type.String({ description: "The developer's description of the picture" }),
  width: Type.Integer(),
  height: Type.Integer(),
});
export const ScreenshotListSchema = Type.Object({ screenshots: Type.Array(ScreenshotSchema) });

declare const _screenshot: SchemaMatches<typeof ScreenshotSchema, GameScreenshot>;
declare const _screenshotList: SchemaMatches<typeof ScreenshotListSchema, GameScreenshotList>;

export function screenshotToWire(
  webOrigin: string | undefined,
  shot: ScreenshotSummary,
): GameScreenshot {
  return {
    id: shot.id,
    url: screenshotUrl(webOrigin, shot),
    alt: shot.altText,
    width: shot.width,
    height: shot.height,
  };
}
