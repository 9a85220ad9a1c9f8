import type { PlayerIdentity, PublicPlayerProfile } from '@coinop/protocol';
import { requestJson } from '../api.js';

/** A player's public page (`GET /catalog/players/{playerId}`): no credentials. */
export function getPublicProfile(
  playerId: string,
  signal?: AbortSignal,
): Promise<PublicPlayerProfile> {
  return requestJson<PublicPlayerProfile>(
    `/api/catalog/players/${encodeURIComponent(playerId)}`,
    signal === undefined ? {} : { signal },
  );
}

/** The signed-in player's profile calls, over the session's `call`. */
export function profileApi(call: <T>(path: string, body?: unknown, method?: string) => Promise<T>) {
  return {
    setName: (name: string) => call<PlayerIdentity>('/player/me', { name }, 'PATCH'),
    setAvatar: (image: string) => call<PlayerIdentity>('/player/me/avatar', { image }, 'PUT'),
    removeAvatar: () => call<PlayerIdentity>('/player/me/avatar', undefined, 'DELETE'),
  };
}
