const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A schedule in words when it is one the form makes (every day, or every week, at a UTC time),
 * with the cron itself as its title; any other cron as it is.
 */
export function Schedule({ cron }: { cron: string }) {
  const m = /^(\d{1,2}) (\d{1,2}) \* \* (\*|[0-6])$/.exec(cron);
  if (m === null) return <span className="mono">{cron}</span>;
  const [, minute, hour, weekday] = m as unknown as [string, string, string, string];
  const at = `${hour.padStart(2, '0')}:${minute.padStart(2, '0')} UTC`;
  const when = weekday === '*' ? 'Every day' : `Every ${WEEKDAYS[Number(weekday)]}`;
  return <span title={`cron ${cron}`}>{`${when} at ${at}`}</span>;
}
