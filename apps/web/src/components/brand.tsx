import { useId } from 'react';

/**
 * The arcade's marks, inline so they need no request: the logo (a coin dropping into a cabinet's
 * slot) and the HST token (a gold coin). Both decorative: the text beside them says the same.
 */
export function LogoMark() {
  const id = useId();
  return (
    <svg className="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={`${id}-cab`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7a68ff" />
          <stop offset="1" stopColor="#e0409b" />
        </linearGradient>
        <clipPath id={`${id}-above-slot`}>
          <rect x="0" y="0" width="32" height="20.5" />
        </clipPath>
      </defs>
      <rect x="2" y="2" width="28" height="28" rx="8" fill={`url(#${id}-cab)`} />
      <g clipPath={`url(#${id}-above-slot)`}>
        <circle cx="16" cy="15" r="7.5" fill="#ffc940" stroke="#b8860b" strokeWidth="1.5" />
        <circle cx="16" cy="15" r="4" fill="none" stroke="#b8860b" strokeWidth="1.2" />
      </g>
      <rect x="7" y="20.5" width="18" height="3.5" rx="1.75" fill="#0d0c1a" />
    </svg>
  );
}

/** The HST coin, sized to the text around it. */
export function TokenMark() {
  return (
    <svg className="token-mark" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="7.25" fill="#ffc940" stroke="#b8860b" strokeWidth="1.5" />
      <path
        d="M5.5 4.5v7M10.5 4.5v7M5.5 8h5"
        stroke="#7a5200"
        strokeWidth="1.6"
        strokeLinecap="round"
        fill="none"
      />
    </svg>
  );
}
