import { useCopy } from '../components/toasts.js';

/**
 * A transaction hash: shortened on screen unless `full`, whole for screen readers, copy and the tooltip. The
 * arcade names no block explorer, so it is not a link (docs: apps/web/README.md).
 */
export function TxHash({ hash, full = false }: { hash: string; full?: boolean }) {
  const short = full ? hash : `${hash.slice(0, 10)}…${hash.slice(-8)}`;
  return (
    <span className="tx-hash">
      <code className={full ? 'mono' : 'mono nowrap'} title={hash} data-tx-hash={hash}>
        <span aria-hidden="true">{short}</span>
        <span className="visually-hidden">{hash}</span>
      </code>{' '}
      <CopyHash hash={hash} />
    </span>
  );
}

function CopyHash({ hash }: { hash: string }) {
  const copy = useCopy();
  return (
    <button
      type="button"
      className="small"
      aria-label={`Copy transaction hash ${hash}`}
      onClick={() => void copy(hash, 'Transaction hash')}
    >
      Copy
    </button>
  );
}
