import { JsonClient } from '../http.js';
import { runOpenLoop, type OpenLoopResult } from '../openLoop.js';
import { runLoad, type LoadResult } from '../load.js';
import type { RunningSystem } from '../system.js';

export interface CommandsResult extends LoadResult {
  connections: number;
  /** Commands answered, by kind (a loan's answer carries its loan number). */
  loanApplications: number;
  profileUpdates: number;
  /** Answers by status (201 loan, 200 profile; 202 = read models lagged over 2 s; 409 = lost every retry). */
  statuses: Record<string, number>;
}

/** A profile change that really changes something (a re-save records nothing), unique so its push can be recognised. */
export function profileChange(tag: string): string {
  return JSON.stringify({ address: `Unit ${tag}, 123 Rizal Avenue, Manila` });
}

/**
 * Scenario 3: profile updates and loan applications spread over every seeded member, with
 * `connections` always in flight, for `durationSeconds`. One command in four is a loan application
 * while members without a loan remain (a borrower holds one loan at a time); the rest are profile updates.
 */
export async function commandsScenario(
  system: RunningSystem,
  { connections, durationSeconds, tag, loans = true }: { connections: number; durationSeconds: number; tag: string; /** false: profile updates only (the members have their loans already). */ loans?: boolean },
): Promise<CommandsResult> {
  const { members, tokens } = system;
  let sent = 0;
  let loanCursor = 0;
  let loanApplications = 0;
  let profileUpdates = 0;
  const statuses: Record<string, number> = {};
  const result = await runLoad({
    url: system.baseUrl,
    connections,
    durationSeconds,
    // A loan application that loses many races on the loan-number sequence can take seconds: wait for it, so its ack time counts.
    timeoutSeconds: 30,
    next: () => {
      const k = sent++;
      if (loans && k % 4 === 0 && loanCursor < members.length) {
        const i = loanCursor++;
        return {
          method: 'POST',
          path: '/api/loans',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` },
          body: JSON.stringify({ amount: 100_000, purpose: 'Small business inventory', termMonths: 12 }),
        };
      }
      const i = k % members.length;
      return {
        method: 'PUT',
        path: '/api/user/profile',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` },
        body: profileChange(`${tag}-${k}`),
      };
    },
    onResponse: (status, body) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (typeof body === 'string' && body.includes('"loanNumber"')) loanApplications++;
      else if (typeof body === 'string' && body.includes('"verified"')) profileUpdates++;
    },
  });
  return { ...result, connections, loanApplications, profileUpdates, statuses };
}

export interface OpenCommandsResult extends OpenLoopResult {
  loanApplications: number;
  profileUpdates: number;
}

/**
 * Scenario 3, open loop (issue 19): the same commands as the closed loop — one in four a loan
 * application while members without a loan remain, the rest profile updates — offered at a fixed
 * `rate` for `durationSeconds` whatever the system does; the ack latency runs from each command's
 * scheduled send time. A 2xx answer is an ack; anything else, an error or a timeout is dropped.
 */
export async function openLoopCommandsScenario(system: RunningSystem, { rate, durationSeconds, tag }: { rate: number; durationSeconds: number; tag: string }): Promise<OpenCommandsResult> {
  const { members, tokens } = system;
  const client = new JsonClient(system.baseUrl, 1_024);
  let loanCursor = 0;
  let loanApplications = 0;
  let profileUpdates = 0;
  try {
    const result = await runOpenLoop({
      ratePerSecond: rate,
      durationSeconds,
      send: async (k) => {
        if (k % 4 === 0 && loanCursor < members.length) {
          const i = loanCursor++;
          const res = await client.call('POST', '/api/loans', { token: tokens[i], body: { amount: 100_000, purpose: 'Small business inventory', termMonths: 12 }, timeoutMs: 30_000 });
          if (res.status >= 200 && res.status < 300) loanApplications++;
          return { ok: res.status >= 200 && res.status < 300, status: res.status };
        }
        const i = k % members.length;
        const res = await client.call('PUT', '/api/user/profile', { token: tokens[i], body: JSON.parse(profileChange(`${tag}-${k}`)), timeoutMs: 30_000 });
        if (res.status >= 200 && res.status < 300) profileUpdates++;
        return { ok: res.status >= 200 && res.status < 300, status: res.status };
      },
    });
    return { ...result, loanApplications, profileUpdates };
  } finally {
    client.close();
  }
}
