import type { UserAnswer } from '@honeylend/contracts';
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
    createdAt: '2026-01-05T08:00:00.000Z',
    version: 12,
    ...overrides,
  };
}
