import './preview-banner.css';

/**
 * Said above an unpublished game that its developer or a tester opened (issue 17): the page is
 * real — plays charge as any play — but nobody else can see it.
 */
export function PreviewBanner() {
  return (
    <p className="preview-banner" role="note" data-testid="preview-banner">
      <strong>Preview — not listed in the catalog.</strong>{' '}
      <span>
        Only its developer and testers can open this game until the operator publishes it.
      </span>
    </p>
  );
}
