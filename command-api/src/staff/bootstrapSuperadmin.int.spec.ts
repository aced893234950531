import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { createLogger } from '@honeylend/observability';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { hashPassword } from '../platform/passwords/passwords.js';
import { adminAccountDecider, adminUsernameDecider } from './adminAccount.js';
import { bootstrapSuperadmin } from './bootstrapSuperadmin.js';

const PASSWORD = 'main-admin-password-1';
let store: EventStore;
const lines: string[] = [];
const logger = createLogger('test', { level: 'info', write: (line) => void lines.push(line) });

beforeEach(async () => {
  store = await openEventStore('pglite:memory');
  lines.length = 0;
});
afterEach(() => store.close());

async function mainAdmins(): Promise<string[]> {
  const events = await store.readAll({ limit: 10_000 });
  return events.filter((event) => event.type === 'AdminAccountCreated' && event.data.role === 'superadmin').map((event) => String(event.data.username));
}

describe('the main admin made at start', () => {
  it('is made once: a restart with another ADMIN_USERNAME makes no second main admin', async () => {
    const first = await bootstrapSuperadmin(store, 'alpha', PASSWORD, logger);
    const second = await bootstrapSuperadmin(store, 'beta', PASSWORD, logger);
    expect(await mainAdmins()).toEqual(['alpha']);
    expect([first, second]).toEqual(['created', 'exists']);
    expect(await store.readStream(streams.adminUsername('beta'))).toHaveLength(0);
    expect(lines.join('\n')).toMatch(/main admin already exists/);
  });

  it('is made once when API nodes configured with different names start at the same time', async () => {
    const outcomes = await Promise.all(['alpha', 'beta', 'gamma', 'delta'].map((name) => bootstrapSuperadmin(store, name, PASSWORD, logger)));
    const made = await mainAdmins();
    expect(made).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    // Only the main admin's own name was reserved: no other name leads to the account.
    for (const name of ['alpha', 'beta', 'gamma', 'delta'].filter((name) => name !== made[0])) expect(await store.readStream(streams.adminUsername(name))).toHaveLength(0);
  });

  it('finishes, on the next start, the main admin a start designated and was stopped before making', async () => {
    const adminId = randomUUID();
    await store.append(streams.mainAdmin, [{ id: randomUUID(), type: 'MainAdminDesignated', data: { adminId, username: 'alpha', designatedAt: new Date().toISOString() }, metadata: {} }], {
      expectedRevision: 'no_stream',
    });
    expect(await bootstrapSuperadmin(store, 'beta', PASSWORD, logger)).toBe('created');
    expect(await mainAdmins()).toEqual(['alpha']);
    expect((await store.readStream(streams.admin(adminId))).map((event) => event.type)).toEqual(['AdminAccountCreated']);
  });

  it('counts a main admin a log already holds from before main admins were designated', async () => {
    const adminId = randomUUID();
    const now = new Date().toISOString();
    const metadata = { actorId: 'bootstrap', correlationId: randomUUID() };
    await handleCommand(store, streams.adminUsername('alpha'), adminUsernameDecider, { type: 'ReserveAdminUsername', username: 'alpha', adminId, now }, metadata);
    await handleCommand(
      store,
      streams.admin(adminId),
      adminAccountDecider,
      { type: 'CreateAdminAccount', adminId, username: 'alpha', fullName: 'Main Admin', email: null, phone: null, role: 'superadmin', passwordHash: await hashPassword(PASSWORD), createdBy: 'bootstrap', now },
      metadata,
    );
    const outcome = await bootstrapSuperadmin(store, 'beta', PASSWORD, logger);
    expect(await mainAdmins()).toEqual(['alpha']);
    expect(outcome).toBe('exists');
  });
});
