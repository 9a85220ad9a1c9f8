/**
 * A number as the arcade writes a score or a duration: the whole part grouped in thousands with
 * commas, a decimal point before any fraction ("260,104", "1,388.5"), the same for every reader
 * whatever their locale, as HST amounts are written (`formatHstGrouped`). It regroups the digits
 * JavaScript writes for the number, without arithmetic, so every digit shown is one the API sent;
 * a number written with an exponent (1e+21) is left as it is. The server's texts (a refused
 * score's reason) and the web app's screens both write scores with it.
 */
export function groupedNumber(value: number | string): string {
  const text = String(value);
  const parts = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (parts === null) return text;
  const [, sign, whole = '', fraction = ''] = parts;
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction}`;
}
