import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import type { AuthRecord } from '@honeylend/contracts';
import type { ReadModelStore } from '../readModels/readModelStore.js';
import { ApiError } from '../errors/apiError.js';
import { authenticatedRead } from './authenticate.js';
import type { RevokedTokens } from './revokedTokens.js';
import { TokenService } from './tokens.js';

/** The account record and the revoked list as Redis would answer them; `sent` records what was asked, in order. */
function setup(record: AuthRecord | null, revokedIds: string[] = []) {
  const sent: string[] = [];
  const tokens = new TokenService('a-test-secret-long-enough-for-hs256-signing');
  tokens.revoked = { has: async (id: string) => (sent.push('revoked'), revokedIds.includes(id)) } as unknown as RevokedTokens;
  const readModels = { auth: async () => (sent.push('auth'), record) } as unknown as ReadModelStore;
  const read = authenticatedRead(tokens, readModels, ['borrower']);
  const ctxFor = (token: string) => ({ get: () => `Bearer ${token}`, state: {} }) as unknown as Context;
  const doc = (id: string) => (sent.push(`doc ${id}`), Promise.resolve({ secret: `profile of ${id}` }));
  return { tokens, read, ctxFor, doc, sent };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe('authenticatedRead', () => {
  it('hands on the read of the caller named by the token, sent with the checks, once they pass', async () => {
    const { tokens, read, ctxFor, doc, sent } = setup({ role: 'borrower', status: 'active', tokenVersion: 2 });
    const ctx = ctxFor(tokens.sign({ sub: 'm1', role: 'borrower', tv: 2 }));
    await expect(read(ctx, doc)).resolves.toEqual({ secret: 'profile of m1' });
    expect(ctx.state.caller).toMatchObject({ id: 'm1', role: 'borrower' });
    expect(sent.sort()).toEqual(['auth', 'doc m1', 'revoked']);
  });

  it('a signed-out token gets 401 and nothing of what was read', async () => {
    const { tokens, read, ctxFor, doc } = setup({ role: 'borrower', status: 'active', tokenVersion: 0 });
    const token = tokens.sign({ sub: 'm1', role: 'borrower', tv: 0 });
    const { jti } = tokens.verify(token)!;
    const signedOut = setup({ role: 'borrower', status: 'active', tokenVersion: 0 }, [jti]);
    expect((await refusal(signedOut.read(signedOut.ctxFor(token), doc))).status).toBe(401);
    await expect(read(ctxFor(token), doc)).resolves.toBeDefined();
  });

  it('a suspended account gets 403 ACCOUNT_SUSPENDED, an older token version and another role 401/403', async () => {
    const suspended = setup({ role: 'borrower', status: 'suspended', tokenVersion: 0 });
    const error = await refusal(suspended.read(suspended.ctxFor(suspended.tokens.sign({ sub: 'm1', role: 'borrower', tv: 0 })), suspended.doc));
    expect([error.status, error.code]).toEqual([403, 'ACCOUNT_SUSPENDED']);
    const reset = setup({ role: 'borrower', status: 'active', tokenVersion: 3 });
    expect((await refusal(reset.read(reset.ctxFor(reset.tokens.sign({ sub: 'm1', role: 'borrower', tv: 2 })), reset.doc))).status).toBe(401);
    const admin = setup({ role: 'admin', status: 'active', tokenVersion: 0 });
    expect((await refusal(admin.read(admin.ctxFor(admin.tokens.sign({ sub: 'a1', role: 'admin', tv: 0 })), admin.doc))).status).toBe(403);
  });

  it('reads nothing without a valid token', async () => {
    const { read, ctxFor, doc, sent } = setup({ role: 'borrower', status: 'active', tokenVersion: 0 });
    expect((await refusal(read(ctxFor('not.a.token'), doc))).status).toBe(401);
    expect(sent).toEqual([]);
  });
});
