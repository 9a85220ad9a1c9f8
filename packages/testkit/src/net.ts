import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the kernel hands out for outgoing connections and `listen(0)`. A port probed free in
 * that range can be taken by any test's next connection before the process it is meant for binds
 * it (EADDRINUSE in CI), so tests pick theirs below it.
 */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return { low, high };
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return { low: 49152, high: 65535 };
}

const { low: EPHEMERAL_LOW } = ephemeralRange();
// Below the ephemeral range when it leaves room (Linux's default starts at 32768), else anywhere.
const [PICK_LOW, PICK_HIGH] =
  EPHEMERAL_LOW > 21_000 ? [20_000, EPHEMERAL_LOW - 1] : [1_024, 65_535];

/** Whether `port` can be bound on every interface right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port free at the time of asking, chosen at random below the ephemeral range so only another
 * test's pick (not any outgoing connection) can take it before it is bound.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = PICK_LOW + Math.floor(Math.random() * (PICK_HIGH - PICK_LOW + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port found in ${PICK_LOW}..${PICK_HIGH} after 50 tries`);
}
