import { request as httpRequest } from 'node:http';
import { startApiServer, createLogger, type ApiServer } from '@honeylend/command-api';
import { REDIS_URL, SUPERADMIN, TEST_REGISTRATIONS_PER_HOUR, uniquePhone, type TestSystem } from './testSystem.js';
import { addBankAccount, registerBorrower, verifyBorrower, type Borrower } from './borrowers.js';

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One HTTP request with control over the connection's local address (127.0.0.2 is another
 * loopback address on Linux: the server sees a different client) — fetch cannot choose it.
 */
export function requestFrom(baseUrl: string, method: string, path: string, options: { body?: unknown; token?: string; headers?: Record<string, string>; localAddress?: string } = {}): Promise<HttpAnswer> {
  const url = new URL(path, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: options.localAddress,
        headers: {
          ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: the test will say so
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export async function adminLogin(system: TestSystem, username: string, password: string): Promise<string> {
  const res = await system.request('POST', '/api/auth/admin-login', { body: { username, password } });
  // 202: signed in, but the read models were still catching up (a busy machine right after start).
  if (res.status !== 200 && res.status !== 202) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.status === 202) await system.api.deps.progress.waitFor(await system.store.headPosition(), 10_000);
  return res.body.token as string;
}

export function superadminToken(system: TestSystem): Promise<string> {
  return adminLogin(system, SUPERADMIN.username, SUPERADMIN.password);
}

export interface TestAdmin {
  id: string;
  email: string;
  phone: string;
  password: string;
  token: string;
}

let adminCounter = 0;

/** An ordinary admin (or a read-only auditor) created by the main admin, signed in. */
export async function createAdmin(system: TestSystem, mainToken: string, role: 'admin' | 'auditor' = 'admin'): Promise<TestAdmin> {
  adminCounter++;
  const email = `${role === 'admin' ? 'officer' : 'auditor'}${adminCounter}.${Date.now()}@honeylend.test`;
  const phone = uniquePhone();
  const password = 'Loan-Officer#2026';
  const res = await system.request('POST', '/api/admin/create-admin', { token: mainToken, body: { email, password, fullName: `Officer ${adminCounter}`, phone, role } });
  if (res.status !== 201) throw new Error(`create-admin failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, email, phone: res.body.phone, password, token: await adminLogin(system, email, password) };
}

/** A verified borrower with a pending loan application (₱80,000 over 12 months unless told). */
export async function borrowerWithPendingLoan(system: TestSystem, fullName = 'Maria Santos', amount = 80_000): Promise<{ borrower: Borrower; loan: any }> {
  const borrower = await registerBorrower(system, fullName);
  await verifyBorrower(system, borrower);
  const res = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount, purpose: 'Sari-sari store stock', termMonths: 12 } });
  if (res.status !== 201) throw new Error(`loan application failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { borrower, loan: res.body };
}

/** The newest withdrawal code texted to the borrower (notifications to the same phone are skipped). */
export async function withdrawalCodeFor(system: TestSystem, borrower: Borrower, notBefore: string[] = [], deadlineMs = 5_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
    for (const entry of (res.body ?? []) as { body: string }[]) {
      const match = /withdrawal code is (\d{6})/.exec(entry.body);
      if (match && !notBefore.includes(match[1])) return match[1];
    }
    if (Date.now() > deadline) throw new Error(`no withdrawal code reached ${borrower.phone}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A pending withdrawal of `amount` pesos, through the real OTP flow (the borrower needs the balance). */
export async function pendingWithdrawal(system: TestSystem, borrower: Borrower, amount: number, usedCodes: string[] = []): Promise<any> {
  await addBankAccount(system, borrower);
  const otp = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount } });
  if (otp.status !== 202) throw new Error(`OTP request failed: ${otp.status} ${JSON.stringify(otp.body)}`);
  const code = await withdrawalCodeFor(system, borrower, usedCodes);
  usedCodes.push(code);
  const res = await system.request('POST', '/api/withdrawals', {
    token: borrower.token,
    body: { amount, bankName: 'BPI', bankAccountNumber: '1234567890', otp: code, challengeId: otp.body.challengeId },
  });
  if (res.status !== 201) throw new Error(`withdrawal failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A second API node on the system's event store and Redis whose TRUSTED_PROXIES names the given
 * addresses, as if it stood behind a load balancer. Its tokens are its own (another secret).
 */
export async function startProxiedNode(system: TestSystem, trustedProxies: string): Promise<ApiServer> {
  return startApiServer({
    store: system.store,
    redisUrl: REDIS_URL,
    keyPrefix: system.keyPrefix,
    jwtSecret: 'proxied-node-secret-long-enough-for-hs256',
    uploadDir: system.uploadDir,
    port: 0,
    host: '127.0.0.1',
    env: { NODE_ENV: 'test', TRUSTED_PROXIES: trustedProxies, REGISTRATIONS_PER_HOUR_PER_ADDRESS: String(TEST_REGISTRATIONS_PER_HOUR) },
    logger: createLogger('test', { level: 'silent' }),
    auditTrustedKeys: system.api.deps.audit.trustedKeys,
  });
}

/**
 * The borrower reads their approved loan's Disclosure Statement and accepts it (RA 3765): the
 * step between approval and disbursement. Answers the loan as the acceptance left it (active).
 */
export async function acceptDisclosure(system: TestSystem, borrowerToken: string, loanId: string): Promise<any> {
  const disclosure = await system.request('GET', `/api/loans/${loanId}/disclosure`, { token: borrowerToken });
  if (disclosure.status !== 200) throw new Error(`disclosure: ${disclosure.status} ${JSON.stringify(disclosure.body)}`);
  const accepted = await system.request('POST', `/api/loans/${loanId}/acceptance`, { token: borrowerToken, body: { hash: disclosure.body.hash } });
  if (accepted.status !== 200) throw new Error(`acceptance: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return accepted.body;
}

/** An admin approves the loan and its borrower accepts the Disclosure Statement: the money reaches the wallet. */
export async function approveAndAccept(system: TestSystem, adminToken: string, borrowerToken: string, loanId: string, body: Record<string, unknown> = {}): Promise<any> {
  const approval = await system.request('PUT', `/api/admin/loans/${loanId}`, { token: adminToken, body: { status: 'approved', ...body } });
  if (approval.status !== 200) throw new Error(`approval: ${approval.status} ${JSON.stringify(approval.body)}`);
  await acceptDisclosure(system, borrowerToken, loanId);
  const loan = await system.request('GET', `/api/admin/loans/${loanId}`, { token: adminToken });
  return loan.body;
}
