import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION, streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, textedCode, verifyBorrower, type Borrower } from '../testing/borrowers.js';
import { borrowerWithPendingLoan, superadminToken } from '../testing/admins.js';
import { openSocket, socketConnected, socketEnded } from '../testing/sockets.js';
import { pngImage } from '../testing/images.js';

/**
 * Revocation that does not wait for the read models, for what the borrower does themselves. With
 * the projection runner stopped, the read models still hold the old token versions: a token the
 * member signed out everywhere accepts no Disclosure Statement, applies for nothing, consents to
 * nothing and uploads nothing; and a password change, a reset or a sign-out everywhere ends the
 * member's live sockets on every API node.
 */

const PASSWORD = 'Sampaguita#2026';

describe('a token signed out everywhere, with the projections stopped', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startTestSystem();
  });
  afterAll(() => system?.stop());

  it('accepts no Disclosure Statement, applies for no loan, gives no consent and uploads nothing', async () => {
    const main = await superadminToken(system);
    // One borrower with an approved loan waiting for their acceptance, one verified and free to apply.
    const { borrower: accepting, loan } = await borrowerWithPendingLoan(system, 'Liza Reyes');
    const approval = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: main, body: { status: 'approved' } });
    expect(approval.status, JSON.stringify(approval.body)).toBe(200);
    const disclosure = await system.request('GET', `/api/loans/${loan.id}/disclosure`, { token: accepting.token });
    expect(disclosure.status).toBe(200);
    const applying = await registerBorrower(system, 'Nestor Cruz');
    await verifyBorrower(system, applying);

    await system.stopProjections();
    for (const borrower of [accepting, applying]) {
      const signedOut = await system.request('POST', '/api/auth/logout-everywhere', { token: borrower.token });
      expect([200, 202]).toContain(signedOut.status);
    }
    const before = {
      accepting: (await system.store.readStream(streams.member(accepting.id))).length,
      applying: (await system.store.readStream(streams.member(applying.id))).length,
      loan: (await system.store.readStream(streams.loan(loan.id))).length,
    };

    const accept = await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: accepting.token, body: { hash: disclosure.body.hash } });
    expect(accept.status, JSON.stringify(accept.body)).toBe(401);
    const apply = await system.request('POST', '/api/loans', { token: applying.token, body: { amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 } });
    expect(apply.status, JSON.stringify(apply.body)).toBe(401);
    const consent = await system.request('POST', '/api/user/consent', { token: applying.token, body: { noticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(consent.status, JSON.stringify(consent.body)).toBe(401);
    const upload = await system.upload('/api/upload', { bytes: pngImage(), name: 'selfie.png', type: 'image/png' }, applying.token);
    expect(upload.status, JSON.stringify(upload.body)).toBe(401);
    const cancel = await system.request('POST', `/api/loans/${loan.id}/cancellation`, { token: accepting.token });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(401);

    expect((await system.store.readStream(streams.member(accepting.id))).length).toBe(before.accepting);
    expect((await system.store.readStream(streams.member(applying.id))).length).toBe(before.applying);
    const loanEvents = await system.store.readStream(streams.loan(loan.id));
    expect(loanEvents.length).toBe(before.loan);
    expect(loanEvents.map((event) => event.type)).not.toContain('LoanTermsAccepted');
  });
});

describe("the member's own password change, reset and sign-out everywhere, with the projections stopped", () => {
  let system: TestSystem;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    system = await startTestSystem();
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await system?.stop();
  });

  /** A socket of the borrower on each of two API nodes, both connected. */
  async function socketsOnTwoNodes(borrower: Borrower, otherNodeUrl: string): Promise<Promise<unknown>[]> {
    const opened = [openSocket(system.baseUrl, { token: borrower.token }), openSocket(otherNodeUrl, { token: borrower.token })];
    sockets.push(...opened);
    await Promise.all(opened.map(socketConnected));
    return opened.map(socketEnded);
  }

  it("end the member's sockets on every node", async () => {
    const otherNode = await system.startApiNode();
    const otherNodeUrl = `http://127.0.0.1:${otherNode.port}`;
    const changing = await registerBorrower(system, 'Carmen Lim');
    const resetting = await registerBorrower(system, 'Dante Ramos');
    const leaving = await registerBorrower(system, 'Elena Bautista');
    const ended = {
      changing: await socketsOnTwoNodes(changing, otherNodeUrl),
      resetting: await socketsOnTwoNodes(resetting, otherNodeUrl),
      leaving: await socketsOnTwoNodes(leaving, otherNodeUrl),
    };

    await system.stopProjections();
    // Not one of these can reach the sockets through the change feed now: each must end them itself.
    const changed = await system.request('POST', '/api/user/password', { token: changing.token, body: { currentPassword: PASSWORD, newPassword: 'Kalamansi#2027' } });
    expect([200, 202]).toContain(changed.status);
    expect(await Promise.all(ended.changing)).toEqual([{ reason: 'password-changed' }, { reason: 'password-changed' }]);

    expect((await system.request('POST', '/api/auth/password-reset/request', { body: { phone: resetting.phone } })).status).toBe(202);
    const code = await textedCode(system, resetting, /password reset code is (\d{6})\b/);
    const reset = await system.request('POST', '/api/auth/password-reset/confirm', { body: { phone: resetting.phone, code, newPassword: 'Mangga#Hinog2027' } });
    expect([200, 202]).toContain(reset.status);
    expect(await Promise.all(ended.resetting)).toEqual([{ reason: 'password-changed' }, { reason: 'password-changed' }]);

    const signedOut = await system.request('POST', '/api/auth/logout-everywhere', { token: leaving.token });
    expect([200, 202]).toContain(signedOut.status);
    expect(await Promise.all(ended.leaving)).toEqual([{ reason: 'signed-out-everywhere' }, { reason: 'signed-out-everywhere' }]);
  });
});
