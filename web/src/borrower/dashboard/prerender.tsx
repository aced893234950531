import { creditTierOf, DEFAULT_CREDIT_SCORE, type UserAnswer } from '@honeylend/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { Toaster } from '../../shared/toast/Toaster';
import { BorrowerShell } from '../BorrowerShell';
import { DashboardPage } from '../pages/DashboardPage';
import { useSession } from '../stores/session';

/**
 * The signed-in dashboard's frame as static HTML, rendered at build time (issue 20) by the same
 * components the app draws at /loan-app, into dashboard.html, which the server sends for that
 * address. On a phone the page then shows at once what the app will show while the member's data
 * loads — the shell, the tab bar, the loan card loading, the carousel, the converter, the partner
 * banks — instead of a blank page until the app's script, the session check and the dashboard's
 * chunk have all arrived; the app draws over it once it has them (src/boot.tsx).
 *
 * Nothing of any member is in it: it is drawn for a member without data (no id, no phone, no
 * balance), for whom the dashboard says nothing about verification; the app's own draw replaces
 * every member-specific part. Called by the build (vite.config.ts) in Node.
 */
export function renderDashboardFrame(): string {
  const frame = { user: MEMBER_WITHOUT_DATA, staffRole: null, loading: false };
  // A server render reads a zustand store's initial state (useSyncExternalStore's server snapshot).
  Object.assign(useSession.getInitialState(), frame);
  useSession.setState(frame);
  const lent = typeof navigator === 'undefined';
  if (lent) Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true });
  try {
    return renderToStaticMarkup(
      <StaticRouter location="/loan-app">
        <Routes>
          <Route element={<BorrowerShell />}>
            <Route path="loan-app" element={<DashboardPage />} />
          </Route>
        </Routes>
        <Toaster />
      </StaticRouter>,
    );
  } finally {
    if (lent) Reflect.deleteProperty(globalThis, 'navigator');
  }
}

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
