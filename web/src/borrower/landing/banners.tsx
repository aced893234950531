import type { ReactNode } from 'react';

export interface Banner {
  title: string;
  text: string;
  art: ReactNode;
}

/** Spec §2: three banners (fast cash loans, digital lending, flexible terms), drawn in SVG rather than loaded. */
export const BANNERS: readonly Banner[] = [
  {
    title: 'Fast cash loans',
    text: 'A quick and simple process, with same-day withdrawal after approval.',
    art: (
      <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false">
        <rect x="18" y="34" width="112" height="64" rx="10" fill="#fff8e6" />
        <rect x="30" y="24" width="112" height="64" rx="10" fill="#ffd36b" stroke="#7a4b00" strokeWidth="3" />
        <circle cx="86" cy="56" r="17" fill="none" stroke="#7a4b00" strokeWidth="3" />
        <path d="M80 47h8a5 5 0 0 1 0 10h-8zM80 47v19M77 52h16" fill="none" stroke="#7a4b00" strokeWidth="3" strokeLinecap="round" />
        <path d="M6 104h34M14 114h20" stroke="#fff8e6" strokeWidth="4" strokeLinecap="round" />
      </svg>
    ),
  },
  {
    title: 'Digital lending',
    text: 'Apply online from your phone, or walk in if you prefer.',
    art: (
      <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false">
        <rect x="54" y="8" width="56" height="104" rx="10" fill="#3d2a0f" />
        <rect x="60" y="18" width="44" height="80" rx="4" fill="#fff8e6" />
        <rect x="66" y="28" width="32" height="8" rx="4" fill="#f2a516" />
        <rect x="66" y="44" width="24" height="6" rx="3" fill="#e2c48a" />
        <rect x="66" y="56" width="32" height="6" rx="3" fill="#e2c48a" />
        <rect x="66" y="78" width="32" height="12" rx="6" fill="#f2a516" />
        <path d="M118 40l8-8M122 56h12M118 72l8 8" stroke="#fff8e6" strokeWidth="4" strokeLinecap="round" />
      </svg>
    ),
  },
  {
    title: 'Flexible terms',
    text: 'Repay in installments or all at once, on a term from 6 to 48 months.',
    art: (
      <svg viewBox="0 0 160 120" aria-hidden="true" focusable="false">
        <rect x="30" y="20" width="100" height="86" rx="10" fill="#fff8e6" />
        <rect x="30" y="20" width="100" height="22" rx="10" fill="#7a4b00" />
        <path d="M52 12v18M108 12v18" stroke="#3d2a0f" strokeWidth="5" strokeLinecap="round" />
        {[0, 1, 2, 3].map((column) => [0, 1, 2].map((row) => <rect key={`${column}-${row}`} x={42 + column * 20} y={52 + row * 17} width="14" height="11" rx="3" fill={column + row * 4 < 6 ? '#f2a516' : '#e2c48a'} />))}
      </svg>
    ),
  },
];
