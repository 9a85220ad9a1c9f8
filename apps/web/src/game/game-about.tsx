import type { Game } from '@coinop/protocol';
import { ScreenshotGallery } from './screenshot-gallery.js';

/** Below the game: what its developer says of it, and its screenshots once it is published. */
export function GameAbout({ game }: { game: Game }) {
  return (
    <>
      {game.description !== '' && (
        <section className="game-about" aria-labelledby="about-heading">
          <h2 id="about-heading">About {game.name}</h2>
          <p>{game.description}</p>
        </section>
      )}
      {game.published && <ScreenshotGallery gameId={game.id} gameName={game.name} />}
    </>
  );
}
