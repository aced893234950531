import { expect } from 'vitest';
import { uniquePhone } from './helpers.js';
import { pngImage } from './images.js';
import type { RunningSystem } from './system.js';

export interface ApiBorrower {
  id: string;
  phone: string;
  token: string;
}

/** A borrower registered, verified and holding an approved loan, all through the API. */
export async function approvedBorrower(system: RunningSystem, amount = 250_000): Promise<ApiBorrower & { loanId: string }> {
  const phone = uniquePhone();
  const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Gabriela Silang' } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const borrower: ApiBorrower = { id: registered.body.user.id, phone, token: registered.body.token };

  const urls: Record<string, string> = {};
  for (const [field, colour] of [
    ['idFrontUrl', [242, 165, 22]],
    ['idBackUrl', [122, 75, 0]],
    ['selfieUrl', [29, 95, 214]],
  ] as const) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngImage([...colour]))], { type: 'image/png' }), `${field}.png`);
    const response = await fetch(`${system.baseUrl}/api/upload`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${borrower.token}` } });
    expect(response.status).toBe(201);
    urls[field] = ((await response.json()) as { url: string }).url;
  }
  const profile = await system.request('PUT', '/api/user/profile', {
    token: borrower.token,
    body: {
      address: '45 Mabini Street, Vigan City, Ilocos Sur',
      countryOfWork: 'Philippines',
      monthlySalary: 42000,
      referenceName: 'Diego Silang',
      referencePhone: '09181234567',
      bankName: 'UnionBank',
      bankAccountNumber: '109876543210',
      ...urls,
    },
  });
  expect(profile.body?.verified, JSON.stringify(profile.body)).toBe(true);

  const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount, purpose: 'Tricycle for a transport business', termMonths: 24 } });
  expect(loan.status, JSON.stringify(loan.body)).toBe(201);
  const approval = await system.request('PUT', `/api/admin/loans/${loan.body.id}`, { token: await system.adminToken(), body: { status: 'approved', notify: true } });
  expect(approval.status, JSON.stringify(approval.body)).toBe(200);
  return { ...borrower, loanId: loan.body.id };
}
