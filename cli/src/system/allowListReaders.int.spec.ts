import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';

/**
 * The IP allow-list is the main admin's and the auditors' to read, on every route that could show
 * it: the setting itself, its stream through both stream readers, and the global event log. The
 * allow-list is one setting for the whole system, so this file has a system of its own.
 */
let system: TestSystem;
let mainToken: string;
let officer: TestAdmin;
let auditor: TestAdmin;
/** What the rule says, as a plain admin must never read it. */
const RULE = { ipAddress: '127.0.0.0/8', description: 'Makati head office VPN' };

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
  auditor = await createAdmin(system, mainToken, 'auditor');
  const added = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: RULE });
  if (added.status !== 201) throw new Error(`allow-list rule: ${added.status} ${JSON.stringify(added.body)}`);
  // Something on the log after the rule, which a reader paging past the hidden events must still reach.
  await registerBorrower(system, 'Liwayway Bautista');
});
afterAll(() => system?.stop());

/** Every event of the global log, page by page (`limit` small, so pages start and end around the hidden events). */
async function wholeLog(token: string): Promise<{ stream: string; type: string; data: unknown }[]> {
  const events: { stream: string; type: string; data: unknown }[] = [];
  let from = 0;
  for (let pages = 0; pages < 1_000; pages++) {
    const res = await system.request('GET', `/api/admin/events?from=${from}&limit=3`, { token });
    expect(res.status).toBe(200);
    events.push(...res.body.events);
    if (res.body.next === null) return events;
    from = res.body.next;
  }
  throw new Error('the log did not end');
}

describe('the IP allow-list through the audit routes', () => {
  it('a plain admin reads neither its stream (403 on both stream readers) nor its events in the global log, and still pages the whole log to its end', async () => {
    for (const path of [`/api/admin/audit/${streams.allowedIps}`, `/api/audit/streams/${streams.allowedIps}`]) {
      const res = await system.request('GET', path, { token: officer.token });
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe('MAIN_ADMIN_ONLY');
      expect(JSON.stringify(res.body), path).not.toContain(RULE.ipAddress);
    }
    const log = await wholeLog(officer.token);
    expect(log.filter((event) => event.stream === streams.allowedIps)).toEqual([]);
    expect(JSON.stringify(log)).not.toContain(RULE.description);
    // The pages went on past the hidden events: the borrower registered after the rule is there.
    expect(log.some((event) => event.type === 'MemberRegistered')).toBe(true);
    // Their own member streams stay readable: the History drawer.
    const member = log.find((event) => event.type === 'MemberRegistered')!;
    expect((await system.request('GET', `/api/audit/streams/${member.stream}`, { token: officer.token })).status).toBe(200);
  });

  it('the main admin and an auditor read it on every route', async () => {
    for (const token of [mainToken, auditor.token]) {
      const stream = await system.request('GET', `/api/admin/audit/${streams.allowedIps}`, { token });
      expect(stream.status).toBe(200);
      expect(stream.body.events.map((event: { type: string }) => event.type)).toEqual(['AllowedIpAdded']);
      const folded = await system.request('GET', `/api/audit/streams/${streams.allowedIps}`, { token });
      expect(folded.status).toBe(200);
      expect(JSON.stringify(folded.body)).toContain(RULE.description);
      const log = await wholeLog(token);
      expect(log.filter((event) => event.stream === streams.allowedIps).map((event) => event.type)).toEqual(['AllowedIpAdded']);
    }
  });
});
