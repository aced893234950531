import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { RunningSystem } from './system.js';

export interface ApiAdmin {
  id: string;
  username: string;
  fullName: string;
  token: string;
}

/** A plain admin (role admin), added by the main admin through the API, signed in with its email. */
export async function plainAdmin(system: RunningSystem, fullName: string): Promise<ApiAdmin> {
  const email = `staff-${randomUUID().slice(0, 8)}@honeylend.test`;
  const password = `Kalamansi#${randomUUID().slice(0, 8)}`;
  const created = await system.request('POST', '/api/admin/create-admin', { token: await system.adminToken(), body: { email, password, fullName } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.role).toBe('admin');
  const login = await system.request('POST', '/api/auth/admin-login', { body: { username: email, password } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { id: created.body.id, username: created.body.username, fullName, token: login.body.token };
}

/**
 * Four eyes (design §11): a command answered 202 awaiting approval runs once a different admin
 * (`checkerToken`) approves it; any other answer is handed back as it is.
 */
export async function approvedBySecondAdmin(system: RunningSystem, answer: { status: number; body: any }, checkerToken: string): Promise<{ status: number; body: any }> {
  if (answer.status !== 202 || answer.body?.status !== 'awaiting_approval') return answer;
  const approved = await system.request('POST', `/api/admin/approvals/${answer.body.approvalId}/approve`, { token: checkerToken });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  expect(approved.body.execution?.outcome, JSON.stringify(approved.body)).toBe('done');
  return approved;
}
