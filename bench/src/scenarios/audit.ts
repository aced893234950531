import { generateKeyPairSync } from 'node:crypto';
import type { BookAnswer } from '@honeylend/contracts';
import { AuditCheckpointer, openEventStore } from '@honeylend/eventstore';
import type { AdminSignedInAnswer } from '../answers.js';
import { freePort, type RunContext } from '../context.js';
import { JsonClient } from '../http.js';
import { spawnLending, waitReady } from '../processes.js';
import { seedAggregateLog } from '../auditLog.js';
import { sleep } from '../stats.js';
import { roleEnv, seedingUrl } from '../system.js';

export interface AuditResult {
  events: number;
  seedSeconds: number;
  /** The checkpointer's first pass over the log: it re-checks every link it signs over. */
  checkpoints: number;
  checkpointSeconds: number;
  /** `lending audit verify` as its summary line reports it. */
  verifiedEvents: number;
  verifiedCheckpoints: number;
  verifySeconds: number;
  verifyEventsPerSecond: number;
  /** The whole `lending audit verify` process, start to exit. */
  verifyWallSeconds: number;
  /** GET /api/audit/book?asOf=now: from the first request to the book answered (the job folding the whole log). */
  bookSeconds: number;
  bookPosition: number;
}

/**
 * The auditor's figures (issue 16) on a log of `size` events: `lending audit verify` over all of
 * it (≥ 100,000 events/s) and the book as of now through the API (≤ 30 s for 1,000,000 events).
 * The API and the projections start on the empty log first, so the main admin can sign in; the
 * projections then stop (nothing else competes with the measurements), the log is appended through
 * the store port (borrowers' lives in their own streams), checkpoints are signed, and then measured.
 */
export async function auditScenario(ctx: RunContext, { size }: { size: number }, log: (line: string) => void): Promise<AuditResult> {
  const eventStoreUrl = `${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_audit`;
  const { privateKey } = generateKeyPairSync('ed25519');
  const signingKey = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const port = await freePort();
  const env = { ...roleEnv(ctx, 'audit', port, eventStoreUrl), AUDIT_SIGNING_KEY: signingKey };
  const spawnOptions = { env, logDir: ctx.logDir, cpuProfDir: ctx.profileDir };
  const baseUrl = `http://127.0.0.1:${port}`;
  const projections = spawnLending('projections', 'audit-projections', spawnOptions);
  const api = spawnLending('api', 'audit-api', spawnOptions);
  const client = new JsonClient(baseUrl, 4);
  try {
    await waitReady(baseUrl, [api, projections], 120_000);
    const login = await client.call<AdminSignedInAnswer>('POST', '/api/auth/admin-login', { body: { username: 'bench-admin', password: ctx.adminPassword } });
    if (login.status !== 200) throw new Error(`the main admin could not sign in: ${login.status} ${JSON.stringify(login.body)}`);
    const token = login.body.token;
    await projections.stop();

    const store = await openEventStore(seedingUrl(eventStoreUrl));
    let seedSeconds: number;
    let checkpoints: number;
    let checkpointSeconds: number;
    try {
      const seeding = await seedAggregateLog(store, { count: size });
      seedSeconds = seeding.seconds;
      log(`  appended ${seeding.events.toLocaleString('en')} events (${seeding.members.toLocaleString('en')} borrowers' lives) through the store port in ${seedSeconds.toFixed(1)} s`);
      const started = Date.now();
      checkpoints = (await new AuditCheckpointer({ store, signingKey: privateKey }).tick()).length;
      checkpointSeconds = (Date.now() - started) / 1000;
      log(`  signed ${checkpoints} checkpoints in ${checkpointSeconds.toFixed(1)} s`);
    } finally {
      await store.close();
    }

    if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
    const verifyStarted = Date.now();
    const verify = spawnLending('audit', 'audit-verify', { ...spawnOptions, args: ['verify'] });
    const limit = setTimeout(() => void verify.stop(1_000), 480_000);
    const code = await verify.exited;
    clearTimeout(limit);
    const verifyWallSeconds = (Date.now() - verifyStarted) / 1000;
    const summary = /the chain holds\. (\d+) events? and (\d+) signed checkpoints? checked in ([\d.]+) s \((\d+) events\/s\)/.exec(verify.stdout());
    if (code !== 0 || !summary) throw new Error(`lending audit verify exited ${code}: ${verify.stdout().trim().slice(-400)} (see ${ctx.logDir}/audit-verify.log)`);
    const [verifiedEvents, verifiedCheckpoints, verifySeconds, rate] = summary.slice(1).map(Number) as [number, number, number, number];
    log(`  lending audit verify: ${verifiedEvents.toLocaleString('en')} events and ${verifiedCheckpoints} checkpoints in ${verifySeconds} s (${rate.toLocaleString('en')} events/s)`);

    // The book through the API, as the workspace asks for it: a job folds the log; the answer is polled.
    const asOf = encodeURIComponent(new Date().toISOString());
    const started = Date.now();
    for (;;) {
      if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
      // The fold runs in the API process this asks: on a busy machine an answer may take a while.
      const answer = await client.call<BookAnswer>('GET', `/api/audit/book?asOf=${asOf}`, { token, timeoutMs: 60_000 });
      if (answer.status === 200) {
        const bookSeconds = (Date.now() - started) / 1000;
        log(`  the book as of now (position ${Number(answer.body.position).toLocaleString('en')}): ${bookSeconds.toFixed(1)} s`);
        return {
          events: size,
          seedSeconds,
          checkpoints,
          checkpointSeconds,
          verifiedEvents,
          verifiedCheckpoints,
          verifySeconds,
          verifyEventsPerSecond: rate,
          verifyWallSeconds,
          bookSeconds,
          bookPosition: answer.body.position,
        };
      }
      if (answer.status !== 202) throw new Error(`GET /api/audit/book answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (Date.now() - started > 300_000) throw new Error('the book took over 5 minutes');
      await sleep(200);
    }
  } finally {
    client.close();
    await api.stop();
    await projections.stop();
  }
}
