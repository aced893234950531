import { creditTierOf, DEFAULT_CREDIT_SCORE, type UserAnswer } from '@honeylend/contracts';
import { useEffect, useState, type ReactNode } from 'react';
import { useSession } from '../stores/session';

/**
 * The signed-in dashboard's frame (issue 20): dashboard.html, served at /loan-app, holds the
 * dashboard as the app draws it while a member's data loads, rendered at build time
 * (./prerender.tsx). For a member's stored session the app then hydrates it (src/boot.tsx): React
 * adopts the frame's markup instead of replacing it, so its first commit inserts nothing and the
 * page is not laid out afresh (the replacement was one long task on a phone: TBT), and only the
 * member's own parts change afterwards.
 *
 * Hydration needs the browser's first render to be the build's, so both draw the same tree
 * (StrictMode, a router at /loan-app, FrameCover, App) with the same data:
 * - every zustand store at its initial state, which is what useSyncExternalStore reads as the
 *   server snapshot, on the server and while hydrating; once hydrated, React draws each component
 *   whose store has moved on (the member, the loans, the lender's details) with the current state;
 * - the session's initial state set to the frame's member (drawSessionAsFrame): signed in, with
 *   no data at all (no id, no phone, no balance), for whom the screens say nothing member-specific
 *   (the verification card and the inbox wait for a member with an id).
 */
const MEMBER_WITHOUT_DATA: UserAnswer = {
  id: '',
  phone: '',
  fullName: '',
  email: null,
  address: null,
  countryOfWork: null,
  monthlySalary: null,
  referenceName: null,
  referencePhone: null,
  bankName: null,
  bankAccountNumber: null,
  idFrontUrl: null,
  idBackUrl: null,
  selfieUrl: null,
  balance: 0,
  creditScore: DEFAULT_CREDIT_SCORE,
  creditTier: creditTierOf(DEFAULT_CREDIT_SCORE),
  status: 'active',
  accountStatus: 'active',
  role: 'borrower',
  isAdmin: false,
  personalInfoComplete: true,
  documentsComplete: true,
  verified: true,
  withdrawalHold: null,
  phoneVerified: true,
  consentRequired: false,
  privacyNoticeVersion: null,
  createdAt: '1970-01-01T00:00:00.000Z',
  version: 0,
};

export const FRAME_SESSION = { user: MEMBER_WITHOUT_DATA, staffRole: null, loading: false } as const;

/**
 * Makes the frame's member the session store's initial state, the snapshot React reads on the
 * server and while hydrating. In the browser it is read for nothing else: the session itself is
 * the member's.
 */
export function drawSessionAsFrame(): void {
  Object.assign(useSession.getInitialState(), FRAME_SESSION);
}

/**
 * The frame's cover: inert and hidden from assistive technology until the app has hydrated it, so
 * nothing in the frame can be pressed or announced before it works. Once hydrated it is a plain
 * wrapper around the app.
 */
export function FrameCover({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <div inert={!hydrated} aria-hidden={hydrated ? undefined : true}>
      {children}
    </div>
  );
}
