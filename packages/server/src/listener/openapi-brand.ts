/**
 * coinop's mark on the API reference pages, in place of Swagger UI's and Fastify's: a coin with
 * a slot, and the word. Inline SVG, so the pages still need nothing from the internet.
 */

const COIN = `<circle cx="20" cy="20" r="17" fill="#f5b800" stroke="#8a5a00" stroke-width="3"/>
  <rect x="17" y="9" width="6" height="22" rx="3" fill="#8a5a00"/>`;

/** The top bar's logo: the coin and "coinop", light on Swagger UI's dark bar. */
export const COINOP_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40">
  ${COIN}
  <text x="46" y="29" font-family="system-ui, sans-serif" font-size="26" font-weight="700" fill="#ffffff">coinop</text>
</svg>`;

/** The tab's icon: the coin alone. */
export const COINOP_FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">
  ${COIN}
</svg>`;
