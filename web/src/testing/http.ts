import {
  businessDateOf,
  CONVERTER_CURRENCIES,
  FALLBACK_RATES_PER_PESO,
  toLoanAnswer,
  type LoanAnswer,
  type LoanDoc,
  type NotificationAnswer,
  type RatePoint,
  type RatesAnswer,
  type UserAnswer,
  type WithdrawalAnswer,
} from '@honeylend/contracts';
import { vi } from 'vitest';

/** A JSON answer as the API sends it. */
export function jsonResponse(body: unknown, init: { status?: number; statusText?: string } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    statusText: init.statusText ?? '',
    headers: { 'Content-Type': 'application/json' },
  });
}

export function textResponse(text: string, init: { status: number; statusText?: string }): Response {
  return new Response(text, { status: init.status, statusText: init.statusText ?? '', headers: { 'Content-Type': 'text/plain' } });
}

/** Replaces the global fetch for one test; the config restores the real one afterwards. */
export function mockFetch(...responses: Array<Response | Error>) {
  const fetchMock = vi.fn<typeof fetch>();
  for (const response of responses) {
    if (response instanceof Error) fetchMock.mockRejectedValueOnce(response);
    else fetchMock.mockResolvedValueOnce(response);
  }
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The request a mocked fetch received, as the server would see it. */
export function requestOf(fetchMock: ReturnType<typeof mockFetch>, call = 0) {
  const [url, init = {}] = fetchMock.mock.calls[call] ?? [];
  const headers = new Headers(init.headers);
  return {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
    url: String(url),
    method: init.method ?? 'GET',
    headers,
    body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    init,
  };
}

export function memberAnswer(overrides: Partial<UserAnswer> = {}): UserAnswer {
  return {
    id: '6f1c2a7e-0d59-4c2f-9a55-1f7d3c1b2e11',
    phone: '+639171234567',
    fullName: 'Maria Santos',
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
    creditScore: 500,
    creditTier: { label: 'Average Credit', stars: 2 },
    status: 'active',
    accountStatus: 'active',
    role: 'borrower',
    isAdmin: false,
    personalInfoComplete: false,
    documentsComplete: false,
    verified: false,
    withdrawalHold: null,
    phoneVerified: false,
    consentRequired: false,
    privacyNoticeVersion: '2026-11-25',
    createdAt: '2026-01-05T08:00:00.000Z',
    version: 12,
    ...overrides,
  };
}

/** A loan as GET /api/loans/user answers it, computed by the server's own mapping (schedule, disclosure). */
/** A loan as the API answers it on the business date `today` (by default the day it was applied for). */
export function loanAnswer(overrides: Partial<LoanDoc> = {}, answer: Partial<LoanAnswer> = {}, today?: string): LoanAnswer {
  const doc: LoanDoc = {
    id: '0b5f6c7d-2a41-4e8e-9c1d-7a3f2b1c0d9e',
    memberId: '6f1c2a7e-0d59-4c2f-9a55-1f7d3c1b2e11',
    loanNumber: 'LN-2026-000123',
    amountCentavos: 100_000_00,
    termMonths: 12,
    monthlyRateBps: 250,
    purpose: 'Stock for my sari-sari store',
    status: 'pending',
    statusMessage: null,
    createdAt: '2026-01-15T02:00:00.000Z',
    updatedAt: '2026-01-15T02:00:00.000Z',
    version: 40,
    ...overrides,
  };
  return { ...toLoanAnswer(doc, today ?? businessDateOf(doc.createdAt)), ...answer };
}

export function notificationAnswer(overrides: Partial<NotificationAnswer> = {}): NotificationAnswer {
  return {
    id: 'c3d4e5f6-0000-4000-8000-000000000001',
    title: 'Loan LN-2026-000123 update',
    message: 'Your loan LN-2026-000123 has been approved. The amount is now in your wallet.',
    type: 'loan_update',
    createdAt: '2026-01-16T02:00:00.000Z',
    read: false,
    version: 50,
    ...overrides,
  };
}

export function withdrawalAnswer(overrides: Partial<WithdrawalAnswer> = {}): WithdrawalAnswer {
  return {
    id: 'd4e5f6a7-0000-4000-8000-000000000001',
    withdrawalNumber: 'WD-2026-000007',
    amount: 5000,
    bankName: 'BPI',
    bankAccountNumber: '••••7890',
    status: 'pending',
    reason: null,
    createdAt: '2026-01-17T02:00:00.000Z',
    processedAt: null,
    payoutReference: null,
    version: 60,
    ...overrides,
  };
}

/** Answers each request by its path (and method), so a screen's several calls need no fixed order; the rates answer the fallback unless given. */
export function routeFetch(routes: Record<string, (init: RequestInit) => Response | Promise<Response>>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init = {}) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app calls fetch with string paths
    const path = String(input);
    const method = init.method ?? 'GET';
    const handler =
      routes[`${method} ${path}`] ??
      routes[path] ??
      (path === '/api/rates' ? () => jsonResponse(fallbackRatesAnswer()) : undefined) ??
      // The rate new loans get, as a server with the default configuration answers it.
      (path === '/api/loans/terms' ? () => jsonResponse({ monthlyRateBps: 250, monthlyRatePercent: 2.5 }) : undefined);
    if (!handler) return jsonResponse({ message: `no test answer for ${method} ${path}`, code: 'NOT_MOCKED' }, { status: 404 });
    return handler(init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** What GET /api/rates answers with no live source: the fallback rates and no history. */
export function fallbackRatesAnswer(history: Partial<RatesAnswer['history']> = {}): RatesAnswer {
  const empty = Object.fromEntries(CONVERTER_CURRENCIES.map((currency) => [currency.code, [] as RatePoint[]]));
  return { base: 'PHP', rates: { ...FALLBACK_RATES_PER_PESO }, asOf: null, source: 'fallback', history: { ...empty, ...history } as RatesAnswer['history'] };
}
