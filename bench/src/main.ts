/**
 * `npm run bench` (full, under 10 minutes) and `npm run bench -- --quick` (under 2 minutes).
 * Starts the system itself on 127.0.0.1 (a fresh data directory, its own Redis database and key
 * prefix, its own PostgreSQL schemas), seeds through the event-store port, runs each scenario of
 * issue 8, prints one table, writes bench/results/<date>.json, and removes everything it created.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createContext, type RunContext } from './context.js';
import { describeMachine, dropSchemas, type Machine } from './machine.js';
import { stopAllLoads } from './load.js';
import { parseOptions, wants, type BenchOptions } from './options.js';
import { stopAll } from './processes.js';
import { evaluate, renderMachine, renderTable, type Results } from './report.js';
import { deleteKeys } from './cleanup.js';
import { startSystem, type RunningSystem } from './system.js';
import { appendCeilingScenario } from './scenarios/appendCeiling.js';
import { appendChainScenario } from './scenarios/appendChain.js';
import { auditScenario } from './scenarios/audit.js';
import { commandsScenario, openLoopCommandsScenario } from './scenarios/commands.js';
import { otpOpenLoopScenario, otpScenario } from './scenarios/otp.js';
import { apiScaleScenario } from './scenarios/apiScale.js';
import { observabilityScenario, sideBySideOrder, type ProcessWindow } from './scenarios/observability.js';
import { coreCount, medianRun, openFileLimit, repetitionsFor, sampleLoad, socketsWithin, withLoad } from './machineLoad.js';
import { pushScenario } from './scenarios/push.js';
import { baselineScenario, readScenario } from './scenarios/read.js';
import { replayScenario } from './scenarios/replay.js';
import { socketsScenario } from './scenarios/sockets.js';
import { adminToken, dayCloseScenario, openLoopRepaymentsScenario, seedMemberLoans, walletRepaymentsScenario } from './scenarios/servicing.js';

const t0 = Date.now();
const log = (line: string) => process.stdout.write(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Throws once the run was interrupted, so the next step is skipped and the run goes straight to its cleanup. */
function ensureNotInterrupted(ctx: RunContext): void {
  if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
}

let cleaning: Promise<void> | null = null;

/** Stops every process the bench started, then removes its Redis keys, PostgreSQL schemas and data directory; runs once. */
function cleanUp(ctx: RunContext): Promise<void> {
  cleaning ??= removeEverything(ctx);
  return cleaning;
}

async function removeEverything(ctx: RunContext): Promise<void> {
  await stopAll();
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: 2 });
  try {
    const keys = await deleteKeys(redis, ctx.keyPrefix);
    const schemas = await dropSchemas(ctx.postgresUrl, ctx.schemaPrefix).catch((error: Error) => {
      log(`could not drop the bench's PostgreSQL schemas: ${error.message}`);
      return [];
    });
    log(`cleaned up: ${keys.toLocaleString('en')} Redis keys, ${schemas.length} PostgreSQL schemas, ${ctx.dataDir}`);
  } finally {
    redis.disconnect();
    rmSync(ctx.dataDir, { recursive: true, force: true });
  }
}

/** Where each scenario's load-average samples go (results.loads), and how HTTP scenarios are repeated on a busy machine. */
function measurer(options: BenchOptions, results: Results) {
  const loads = (results.loads ??= {});
  const cores = coreCount();
  return {
    /** Runs `work` once, recording the load average before and after it under `key`. */
    async once<T>(key: string, work: () => Promise<T>): Promise<T> {
      const { value, load } = await withLoad(work);
      loads[key] = load;
      return value;
    },
    /**
     * An HTTP scenario: in a quick run on a busy machine (one-minute load above the core count)
     * it runs three times and the median run by req/s is reported, every run's figure beside it.
     */
    async http<T extends { requestsPerSecond: number }>(key: string, work: () => Promise<T>): Promise<T> {
      const before = sampleLoad();
      const repetitions = repetitionsFor(options.quick, before, cores);
      const runs: T[] = [];
      for (let i = 0; i < repetitions; i++) runs.push(await work());
      const { median, values } = medianRun(runs, (run) => run.requestsPerSecond);
      loads[key] = { before, after: sampleLoad(), ...(repetitions > 1 ? { repeats: values } : {}) };
      return median;
    },
  };
}

async function postgresPhase(ctx: RunContext, options: BenchOptions, results: Results, failures: string[]): Promise<void> {
  const step = async (name: string, work: () => Promise<void>) => {
    if (ctx.interrupt.signal.aborted) return;
    log(`${name} (load average ${loadavg()[0].toFixed(2)})`);
    try {
      await work();
    } catch (error) {
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const measure = measurer(options, results);
  log('PostgreSQL, roles as separate processes: seeding and starting');
  const system: RunningSystem = await startSystem(ctx, 'postgres', log);
  const duration = options.durationSeconds;
  const httpScenarios = wants(options, 'baseline') || wants(options, 'read') || wants(options, 'commands-postgres');
  const baseline = async (key: 'baseline' | 'baselineAfter', when: string) =>
    step(`1. baseline ${when}: bare Koa + one Redis GET (${options.readConnections} connections, ${duration} s)`, async () => {
      const result = await measure.http(key, () => baselineScenario(ctx, system, { connections: options.readConnections, durationSeconds: duration }));
      results[key] = result;
      log(`  ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms`);
    });
  try {
    if (httpScenarios) await baseline('baseline', 'before the HTTP scenarios');
    if (wants(options, 'read')) {
      for (const [key, path] of [
        ['loansOfMember', '/api/loans/user'],
        ['profile', '/api/user/profile'],
      ] as const) {
        await step(`2. read API ${path} (${options.readConnections} connections, ${duration} s)`, async () => {
          const result = await measure.http(`read.${key}`, () => readScenario(system, path, { connections: options.readConnections, durationSeconds: duration }));
          (results.read ??= {})[key] = result;
          log(`  ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}`);
          if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`);
        });
      }
    }
    if (wants(options, 'commands-postgres')) {
      // The open loop first, while members have no loan yet: its load has the closed loop's mix of loan applications.
      await step(`3. commands on PostgreSQL, open loop (${options.openCommandRate}/s offered for ${duration} s)`, async () => {
        const result = await measure.once('commands.openLoop', () => openLoopCommandsScenario(system, { rate: options.openCommandRate, durationSeconds: duration, tag: 'open' }));
        (results.commands ??= {}).openLoop = result;
        log(
          `  ${Math.round(result.completedPerSecond)} answered/s of ${result.offeredPerSecond} offered, ack from the scheduled time p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms; dropped ${result.dropped} (${result.errors} errors, ${result.failed} not 2xx, ${result.notSent} not sent); generator lag p99 ${result.sendLagMs.p99.toFixed(1)} ms; statuses ${JSON.stringify(result.statuses)}`,
        );
      });
      await step(`3. commands on PostgreSQL, closed loop (${options.commandConnections} in flight, ${duration} s): the ceiling`, async () => {
        // After the open loop every member holds a loan: a second application would only be refused (409), so profile updates only.
        const loans = !results.commands?.openLoop;
        const result = await measure.http('commands.postgres', () => commandsScenario(system, { connections: options.commandConnections, durationSeconds: duration, tag: 'pg', loans }));
        (results.commands ??= {}).postgres = result;
        log(`  ${Math.round(result.requestsPerSecond)} cmd/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, statuses ${JSON.stringify(result.statuses)}`);
      });
      await step('3b. diagnostic: the PostgreSQL adapter alone, single-event appends', async () => {
        const result = await measure.once('commands.appendCeiling', () =>
          appendCeilingScenario(`${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_ceiling`, { concurrency: options.commandConnections, seconds: options.quick ? 2 : 5 }),
        );
        (results.commands ??= {}).appendCeiling = result;
        log(`  ${Math.round(result.appendsPerSecond)} appends/s, p50 ${result.appendMs.p50.toFixed(1)} ms, p99 ${result.appendMs.p99.toFixed(1)} ms`);
      });
    }
    if (wants(options, 'push')) {
      const measured = results.commands?.postgres?.requestsPerSecond;
      const rate = measured ? Math.min(measured / 2, options.openCommandRate) : 50;
      if (!measured) ctx.notes.push('push: scenario 3 on PostgreSQL did not run, so commands were sent at 50/s');
      await step(`4. command → live push (${system.members.length} sockets, ${rate.toFixed(0)} cmd/s for ${duration} s)`, async () => {
        results.push = await measure.once('push', () => pushScenario(system, { rate, durationSeconds: duration, tag: 'push', socketBatch: options.socketBatch }));
        const p = results.push;
        log(`  p50 ${p.pushMs.p50.toFixed(1)} ms, p95 ${p.pushMs.p95.toFixed(1)} ms, p99 ${p.pushMs.p99.toFixed(1)} ms, max ${p.pushMs.max.toFixed(1)} ms; ${p.missing} missing, ${p.nonOk} not 200`);
        if (p.missing > 0 || p.nonOk > 0) throw new Error(`${p.missing} changes never reached their socket, ${p.nonOk} commands were not answered 200`);
      });
    }
    if (wants(options, 'otp')) {
      await step(`6. OTP delivery, closed loop (${options.otpRequests} requests, ${options.otpConcurrency} at once)`, async () => {
        results.otp = await measure.once('otp', () => otpScenario(system, ctx.redisUrl, { count: options.otpRequests, concurrency: options.otpConcurrency }));
        const o = results.otp;
        log(`  p50 ${o.deliveredMs.p50.toFixed(1)} ms, p99 ${o.deliveredMs.p99.toFixed(1)} ms; ${o.delivered}/${o.requests} delivered`);
        if (o.nonAccepted > 0) throw new Error(`${o.nonAccepted} OTP requests were refused: ${o.firstRefusal}`);
        if (o.delivered < o.requests) throw new Error(`${o.requests - o.delivered} codes never reached the outbox`);
      });
      await step(`6. OTP delivery, open loop (${options.otpOpenRate}/s for ${options.otpOpenSeconds} s)`, async () => {
        results.otpOpen = await measure.once('otpOpen', () => otpOpenLoopScenario(system, ctx.redisUrl, { rate: options.otpOpenRate, durationSeconds: options.otpOpenSeconds }));
        const o = results.otpOpen;
        log(
          `  from the scheduled time to the outbox: p50 ${o.latencyMs.p50.toFixed(1)} ms, p99 ${o.latencyMs.p99.toFixed(1)} ms, max ${o.latencyMs.max.toFixed(1)} ms; ${o.ok}/${o.scheduled} delivered, dropped ${o.dropped}; statuses ${JSON.stringify(o.statuses)}`,
        );
        log(
          `  of which sending to the 202: p50 ${o.ackMs.p50.toFixed(1)} ms, p99 ${o.ackMs.p99.toFixed(1)} ms; the 202 to the outbox: p50 ${o.afterAckMs.p50.toFixed(1)} ms, p99 ${o.afterAckMs.p99.toFixed(1)} ms; longest event-loop stall (max / p99 ms) ${JSON.stringify(o.eventLoopDelayMs)}`,
        );
        if (o.dropped > 0) throw new Error(`${o.dropped} of ${o.scheduled} OTP requests were not delivered (${o.undelivered} accepted but never in the outbox; first error ${o.firstError})`);
      });
    }
    if (httpScenarios) await baseline('baselineAfter', 'after the HTTP scenarios');
    if (wants(options, 'api-scale')) {
      await step(`11. API scale-out: the same read + command load on ${options.apiProcesses.join(', ')} \`lending api\` processes (${options.readConnections} connections, ${duration} s each)`, async () => {
        results.apiScale = await measure.once('apiScale', () => apiScaleScenario(system, { connections: options.readConnections, durationSeconds: duration, processes: options.apiProcesses, tag: 'scale' }));
        for (const run of results.apiScale.runs) {
          log(
            `  ${run.processes} process${run.processes > 1 ? `es, ${run.routing}` : ''}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, statuses ${JSON.stringify(run.statuses)} (load ${run.load.before.oneMinute} → ${run.load.after.oneMinute}); CPU s ${JSON.stringify(run.cpuSeconds)}; commands accepted ${run.commandsAccepted}, conflict retries ${run.conflictRetries}`,
          );
        }
        // A 409 is an answer (two processes updated one member's profile at once and one lost every retry); errors and 5xx are not.
        const bad = results.apiScale.runs.reduce(
          (sum, run) =>
            sum +
            run.errors +
            Object.entries(run.statuses)
              .filter(([status]) => Number(status) >= 500)
              .reduce((n, [, count]) => n + count, 0),
          0,
        );
        if (bad > 0) throw new Error(`${bad} requests failed or were answered 5xx`);
      });
    }
    if (wants(options, 'sockets')) {
      // The bench holds every client socket and the API every server socket: both under this shell's open-file limit.
      const fdLimit = openFileLimit();
      const sockets = socketsWithin(options.sockets, fdLimit, options.socketBatch);
      if (sockets < options.sockets)
        ctx.notes.push(`sockets: ${sockets.toLocaleString('en')} held, not ${options.sockets.toLocaleString('en')}: the open-file limit is ${fdLimit} (raise it with \`ulimit -n\` in the shell that runs the bench)`);
      await step(`5. sockets held: ${sockets.toLocaleString('en')} in batches of ${options.socketBatch}`, async () => {
        await system.restartApi();
        results.sockets = await measure.once('sockets', () => socketsScenario(system, { count: sockets, batch: options.socketBatch, tag: 'sockets', deliveryTimeoutMs: options.quick ? 20_000 : 60_000 }));
        const s = results.sockets;
        log(`  ${s.connected} connected in ${s.connectSeconds.toFixed(1)} s, ${s.rssPerSocketKb?.toFixed(1)} KB RSS per socket, ${s.delivered}/${s.connected} received the change`);
        if (s.failed > 0) throw new Error(`${s.failed} sockets could not connect: ${s.firstError}`);
        if (s.delivered < s.connected) throw new Error(`${s.connected - s.delivered} sockets never received their member's change`);
      });
    }
    if (wants(options, 'observability')) {
      await step(
        `12. logging and metrics off vs on, two API processes side by side (read and commands, ${options.observabilitySeconds} s each after ${options.observabilityWarmupSeconds} s of warm-up; on: ${sideBySideOrder(options.observabilityCycles).join('/')})`,
        async () => {
          results.observability = await measure.once('observability', () =>
            observabilityScenario(system, {
              readConnections: options.readConnections,
              commandConnections: options.commandConnections,
              durationSeconds: options.observabilitySeconds,
              cycles: options.observabilityCycles,
              warmupSeconds: options.observabilityWarmupSeconds,
              tag: 'obs',
            }),
          );
          const o = results.observability;
          const side = (window: ProcessWindow, unit: string) => `${Math.round(window.load.requestsPerSecond)} ${unit} (p99 ${window.load.latencyMs.p99} ms, CPU ${window.cpuMs?.toFixed(3)} ms each)`;
          for (const run of o.runs)
            log(
              `  on in the ${run.onProcess} process: read off ${side(run.read.off, 'req/s')}, on ${side(run.read.on, 'req/s')}; commands off ${side(run.commands.off, 'cmd/s')}, on ${side(run.commands.on, 'cmd/s')}; ${run.scrapes} scrapes`,
            );
          log(
            `  cost of logging + metrics: read ${o.readCostPercent.toFixed(1)} %, commands ${o.commandCostPercent.toFixed(1)} % of throughput; CPU per request read ${o.readCpuCostPercent?.toFixed(1)} %, commands ${o.commandCpuCostPercent?.toFixed(1)} %`,
          );
        },
      );
    }
  } finally {
    await system.stop();
  }
}

/** Scenarios 8 and 9 on a PostgreSQL system of their own: wallet repayments over the seeded members' loans, then the day close of a large book. */
async function servicingPhase(ctx: RunContext, options: BenchOptions, results: Results, failures: string[]): Promise<void> {
  log('PostgreSQL, roles as separate processes, for servicing: seeding and starting');
  // A system of its own: after the first PostgreSQL phase its schema already holds the same seeded members.
  const system: RunningSystem = await startSystem(ctx, 'postgres', log, 'servicing');
  try {
    if (wants(options, 'repayments')) {
      const name = `8. wallet repayments (${options.repaymentConnections} in flight, ${options.durationSeconds} s)`;
      log(name);
      try {
        const loanIds = await seedMemberLoans(system, system.members, await adminToken(system, ctx.adminPassword));
        results.repayments = await measurer(options, results).once('repayments', () => walletRepaymentsScenario(system, loanIds, { connections: options.repaymentConnections, durationSeconds: options.durationSeconds }));
        const r = results.repayments;
        log(`  ${Math.round(r.requestsPerSecond)} repayments/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, statuses ${JSON.stringify(r.statuses)}`);
        log(
          `  CPU per repayment (ms): ${Object.entries(r.cpuMsPerRepayment)
            .map(([role, msEach]) => `${role} ${msEach}`)
            .join(', ')}`,
        );
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx answers and ${r.errors} errors`);
        log(`8. wallet repayments, open loop (${options.repaymentOpenRate}/s for ${options.durationSeconds} s)`);
        results.repaymentsOpenLoop = await measurer(options, results).once('repaymentsOpenLoop', () =>
          openLoopRepaymentsScenario(system, loanIds, { rate: options.repaymentOpenRate, durationSeconds: options.durationSeconds }),
        );
        const open = results.repaymentsOpenLoop;
        log(
          `  ${open.ok}/${open.scheduled} answered 201 (${Math.round(open.completedPerSecond)}/s), from the due time p50 ${Math.round(open.latencyMs.p50)} ms, p99 ${Math.round(open.latencyMs.p99)} ms, max ${Math.round(open.latencyMs.max)} ms; ${open.dropped} dropped; statuses ${JSON.stringify(open.statuses)}; the bench's own send lag p99 ${open.sendLagMs.p99} ms`,
        );
        if (open.errors > 0) throw new Error(`open loop: ${open.errors} transport errors (${open.firstError})`);
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (wants(options, 'day-close')) {
      const name = `9. day close of ${options.dayCloseLoans.toLocaleString('en')} active loans`;
      log(name);
      try {
        results.dayClose = await measurer(options, results).once('dayClose', () => dayCloseScenario(system, { count: options.dayCloseLoans, adminPassword: ctx.adminPassword }, log));
        const d = results.dayClose;
        log(`  ${d.closeSeconds.toFixed(1)} s for ${d.loans} loans (${d.changed} recorded ${d.events} events); again: ${d.againSeconds.toFixed(1)} s, ${d.againEvents} events`);
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await system.stop();
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const ctx = createContext(options, startedAt);
  const results: Results = {};
  const failures: string[] = [];
  let machine: Machine | null = null;
  // On SIGINT/SIGTERM the processes the bench started are stopped at once, so the running scenario
  // fails fast; the run then skips what is left and cleans up in its own `finally` (nothing can be
  // created after the cleanup). Should that take over 30 s, or a second signal come, the cleanup
  // runs from here and the bench exits.
  const interrupted = () => {
    if (ctx.interrupt.signal.aborted) {
      log('second interrupt: cleaning up and exiting now');
      void cleanUp(ctx).finally(() => process.exit(130));
      return;
    }
    log('interrupted: stopping what the bench started, then cleaning up');
    ctx.interrupt.abort();
    stopAllLoads();
    void stopAll();
    setTimeout(() => void cleanUp(ctx).finally(() => process.exit(130)), 30_000).unref();
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);

  log(`Honeylend benchmark, ${options.quick ? 'quick' : 'full'} run ${ctx.runId}; logs in ${ctx.logDir}`);
  try {
    machine = await describeMachine(ctx.redisUrl, ctx.postgresUrl);
    log(`machine: ${renderMachine(machine)}`);
    log(`Redis ${ctx.redisUrl} (keys under ${ctx.keyPrefix}), PostgreSQL schemas ${ctx.schemaPrefix}_*`);

    if (wants(options, 'commands-pglite')) {
      try {
        ensureNotInterrupted(ctx);
        log('PGlite, `lending start` (every role in one process): seeding and starting');
        const system = await startSystem(ctx, 'pglite', log);
        try {
          log(`3. commands on PGlite (${options.commandConnections} in flight, ${options.durationSeconds} s)`);
          const result = await measurer(options, results).http('commands.pglite', () => commandsScenario(system, { connections: options.commandConnections, durationSeconds: options.durationSeconds, tag: 'pglite' }));
          (results.commands ??= {}).pglite = result;
          log(`  ${Math.round(result.requestsPerSecond)} cmd/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, statuses ${JSON.stringify(result.statuses)}`);
        } finally {
          await system.stop();
        }
      } catch (error) {
        failures.push(`commands on PGlite: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (['baseline', 'read', 'commands-postgres', 'push', 'sockets', 'otp', 'api-scale', 'observability'].some((name) => wants(options, name as never))) {
      try {
        ensureNotInterrupted(ctx);
        await postgresPhase(ctx, options, results, failures);
      } catch (error) {
        failures.push(`PostgreSQL system: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (wants(options, 'repayments') || wants(options, 'day-close')) {
      try {
        ensureNotInterrupted(ctx);
        await servicingPhase(ctx, options, results, failures);
      } catch (error) {
        failures.push(`PostgreSQL system for servicing: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (wants(options, 'replay')) {
      log(`7. replay: ${options.replaySizes.map((n) => n.toLocaleString('en')).join(' then ')} events`);
      try {
        ensureNotInterrupted(ctx);
        results.replay = await measurer(options, results).once('replay', () => replayScenario(ctx, options.replaySizes, options.replayActiveMembers, log));
      } catch (error) {
        failures.push(`replay: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (wants(options, 'append-chain')) {
      log(`3c. appends with and without the hash chain (${options.commandConnections} at once, ${options.appendChainRounds} × ${options.appendChainSeconds} s each)`);
      try {
        ensureNotInterrupted(ctx);
        results.appendChain = await measurer(options, results).once('appendChain', () =>
          appendChainScenario(ctx, { concurrency: options.commandConnections, seconds: options.appendChainSeconds, rounds: options.appendChainRounds }),
        );
        log(`  with the chain ${(results.appendChain.ratio * 100).toFixed(0)} % of the appends/s without it`);
      } catch (error) {
        failures.push(`append-chain: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }

    if (wants(options, 'audit')) {
      log(`10. the auditor: lending audit verify and the book as of now over ${options.auditEvents.toLocaleString('en')} events`);
      try {
        ensureNotInterrupted(ctx);
        results.audit = await measurer(options, results).once('audit', () => auditScenario(ctx, { size: options.auditEvents }, log));
      } catch (error) {
        failures.push(`audit: ${error instanceof Error ? error.message : String(error)}`);
        log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await cleanUp(ctx).catch((error: Error) => log(`cleanup failed: ${error.message}`));
  }

  const { rows, checks } = evaluate(results, options, coreCount());
  const table = renderTable(rows);
  const finishedAt = new Date();
  const seconds = (finishedAt.getTime() - startedAt.getTime()) / 1000;
  const met = checks.filter((check) => check.met === true).length;
  const judged = checks.filter((check) => check.met !== null).length;
  process.stdout.write(`\nHoneylend benchmark — ${options.quick ? 'quick' : 'full'} run, ${startedAt.toISOString()} (${seconds.toFixed(0)} s)\n`);
  if (machine)
    process.stdout.write(
      `Machine: ${renderMachine(machine)}; load average at end ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' / ')}\n`,
    );
  process.stdout.write(`Load generator, system, Redis and PostgreSQL all on this host; other work on the machine is not stopped.\n\n${table}\n\n`);
  process.stdout.write(`Targets met: ${met} of ${judged}${options.quick ? ' (quick run: smaller sizes and 5 s windows; the targets are for the full run)' : ''}\n`);
  const busy = Object.entries(results.loads ?? {}).filter(([, load]) => Math.max(load.before.oneMinute, load.after.oneMinute) > coreCount());
  if (busy.length > 0)
    process.stdout.write(
      `Busy machine (one-minute load above ${coreCount()} cores) during: ${busy.map(([key]) => key).join(', ')} — those figures are the share of the host this run got${options.quick ? '; quick HTTP scenarios begun on a busy machine are the median of three runs' : ''}.\n`,
    );
  for (const note of ctx.notes) process.stdout.write(`Note: ${note}\n`);
  for (const failure of failures) process.stdout.write(`FAILED: ${failure}\n`);

  const stamp = startedAt
    .toISOString()
    .replace(/:/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const file = join(ctx.resultsDir, `${stamp}${options.quick ? '-quick' : ''}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        run: ctx.runId,
        mode: options.quick ? 'quick' : 'full',
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        seconds,
        machine: machine ? { ...machine, loadAverageAtEnd: loadavg() } : null,
        settings: {
          members: options.members,
          durationSeconds: options.durationSeconds,
          readConnections: options.readConnections,
          commandConnections: options.commandConnections,
          sockets: options.sockets,
          otpRequests: options.otpRequests,
          replaySizes: options.replaySizes,
          openCommandRate: options.openCommandRate,
          otpOpen: { rate: options.otpOpenRate, seconds: options.otpOpenSeconds },
          apiProcesses: options.apiProcesses,
          observabilitySeconds: options.observabilitySeconds,
          nodeEnv: 'bench (production-like: secrets set, LOG_LEVEL=warn; the dev SMS outbox needs a non-production NODE_ENV)',
        },
        results,
        targets: checks,
        table,
        notes: ctx.notes,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`\nResults: ${file}\n`);
  if (ctx.interrupt.signal.aborted) {
    process.stdout.write('Interrupted: the figures above are those measured before the interrupt.\n');
    return 130;
  }
  return failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await stopAll().catch(() => undefined);
    process.exit(1);
  },
);
