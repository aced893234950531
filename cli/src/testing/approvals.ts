import type { TestSystem } from './testSystem.js';

/**
 * Four eyes (design §11): when `answer` is a 202 awaiting approval, a different admin (`checkerToken`)
 * approves it on the approvals route, and the approval is answered (its command ran). Any other
 * answer is handed back as it is, so callers can pass whatever the command answered.
 */
export async function approvedBySecondAdmin(system: TestSystem, answer: { status: number; body: any }, checkerToken: string): Promise<{ status: number; body: any }> {
  if (answer.status !== 202 || answer.body?.status !== 'awaiting_approval') return answer;
  const approved = await system.request('POST', `/api/admin/approvals/${answer.body.approvalId}/approve`, { token: checkerToken });
  if (approved.status !== 200) throw new Error(`approval failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  if (approved.body.execution?.outcome !== 'done') throw new Error(`the approved command did not run: ${JSON.stringify(approved.body.execution)}`);
  return approved;
}

/** The main admin sets which commands need a second admin (pesos for the thresholds). */
export async function setApprovalSettings(system: TestSystem, mainToken: string, change: { required?: Partial<Record<string, boolean>>; withdrawalThreshold?: number; loanApprovalThreshold?: number }): Promise<any> {
  const current = await system.request('GET', '/api/admin/settings/approvals', { token: mainToken });
  if (current.status !== 200) throw new Error(`approval settings: ${current.status} ${JSON.stringify(current.body)}`);
  const body = { ...current.body, ...change, required: { ...current.body.required, ...change.required } };
  const res = await system.request('PUT', '/api/admin/settings/approvals', { token: mainToken, body });
  if (res.status !== 200) throw new Error(`setting approval settings failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
