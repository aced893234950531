import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { createJobKeys, JOB_NAMES, QUEUE_NAMES } from '@honeylend/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SplitSystem, type ServingRole } from '../../../resilience/src/support/splitSystem.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../../workers/src/testing/localHttpServer.js';
import { freePort } from '../testing/freePort.js';
import { parsePrometheusText, queryableNames, type MetricFamily } from '../testing/prometheusText.js';
import { metricsQueriedBy } from '../testing/promqlMetrics.js';
import { uniquePhone } from '../testing/testSystem.js';
import { eventually } from '../../../workers/src/testing/eventually.js';

/** Node's own figures, which every role serves. */
const NODE_FAMILIES = ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds'];
const PROJECTION_GAUGES = ['honeylend_projection_lag_events', 'honeylend_projection_lag_seconds', 'honeylend_change_feed_length'];

/** What each role must export (README "Operations"). */
const ROLE_FAMILIES: Record<ServingRole, string[]> = {
  api: [
    'honeylend_http_request_duration_seconds',
    'honeylend_commands_total',
    'honeylend_command_conflict_retries_total',
    'honeylend_eventstore_append_duration_seconds',
    'honeylend_sockets',
    ...PROJECTION_GAUGES,
    ...NODE_FAMILIES,
  ],
  projections: ['honeylend_projection_events_total', 'honeylend_projection_batch_duration_seconds', ...PROJECTION_GAUGES, ...NODE_FAMILIES],
  workers: ['honeylend_queue_jobs', 'honeylend_job_duration_seconds', 'honeylend_job_failures_total', 'honeylend_sms_sent_total', 'honeylend_sms_failures_total', 'honeylend_day_close_duration_seconds', ...NODE_FAMILIES],
};

const ROLES: ServingRole[] = ['projections', 'workers', 'api'];
let gateway: LocalHttpServer;
let system: SplitSystem;
const metricsPorts = {} as Record<ServingRole, number>;
const sockets: Socket[] = [];
/** Every scrape of every role, in order. */
const scrapes: Record<ServingRole, Map<string, MetricFamily>[]> = { api: [], projections: [], workers: [] };

async function scrape(role: ServingRole): Promise<Map<string, MetricFamily>> {
  const response = await fetch(`http://127.0.0.1:${metricsPorts[role]}/metrics`);
  expect(response.status, `${role} /metrics`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusText(await response.text());
  scrapes[role].push(families);
  return families;
}

const scrapeAll = () => Promise.all(ROLES.map(scrape));

const total = (family: MetricFamily | undefined) => [...(family?.samples.values() ?? [])].reduce((sum, value) => sum + value, 0);

beforeAll(async () => {
  // An SMS gateway that refuses the first text and accepts the rest: one failure, then deliveries.
  gateway = await startLocalHttpServer((_request, response, index) => {
    response.writeHead(index === 0 ? 500 : 200, { 'Content-Type': 'application/json' }).end('{}');
  });
  system = new SplitSystem({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'test-gateway-key' } });
  for (const role of ROLES) {
    metricsPorts[role] = await freePort();
    await system.start(role, { METRICS_PORT: String(metricsPorts[role]), METRICS_HOST: '127.0.0.1' });
  }
  await system.waitUntilReady();
  await eventually(
    'every role serving /metrics',
    async () =>
      (
        await Promise.all(
          ROLES.map((role) =>
            fetch(`http://127.0.0.1:${metricsPorts[role]}/metrics`).then(
              (r) => r.ok,
              () => false,
            ),
          ),
        )
      ).every(Boolean)
        ? true
        : undefined,
    30_000,
  );
}, 120_000);

afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await system?.cleanup();
  await gateway?.close();
});

describe('GET /metrics on each role (METRICS_PORT)', () => {
  it('is served on its own port, not on the public one', async () => {
    // The public port answers /metrics with the web app (its client-side router's fallback), never the figures.
    for (const path of ['/metrics', '/api/metrics']) {
      const answer = await system.request('GET', path);
      expect(JSON.stringify(answer.body)).not.toContain('# TYPE');
    }
    expect((await system.request('GET', '/api/metrics')).status).toBe(404);
    expect((await scrape('api')).has('honeylend_http_request_duration_seconds')).toBe(true);
  });

  it('exports every family of its role, and each one moves while the system works', async () => {
    await scrapeAll();

    // Commands: accepted (registration), refused (an unverified borrower applies for a loan), conflicts retried (one member's profile from 16 requests at once).
    const phone = uniquePhone();
    const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Apolinario Mabini' } });
    expect(registered.status).toBe(201);
    const { token, user } = registered.body as { token: string; user: { id: string } };
    const refused = await system.request('POST', '/api/loans', { token, body: { amount: 80_000, purpose: 'Business', termMonths: 12 } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const updates = await Promise.all(Array.from({ length: 16 }, (_, i) => system.request('PUT', '/api/user/profile', { token, body: { address: `${i + 1} Rizal Avenue, Manila` } })));
    expect(updates.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);

    // A live socket.
    const socket = io(system.baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

    // A text: the gateway refuses the first attempt, the retry is delivered.
    const login = await system.request('POST', '/api/auth/admin-login', { body: system.admin });
    const adminToken = (login.body as { token: string }).token;
    const notified = await system.request('POST', '/api/admin/notifications', { token: adminToken, body: { userId: user.id, title: 'Welcome', message: 'Your account is ready.' } });
    expect(notified.status).toBe(201);
    await eventually('the SMS delivered after one refusal', async () => (gateway.requests.length >= 2 ? true : undefined));

    // A day close, as the hourly schedule enqueues it.
    const closesBefore = total(scrapes.workers[0].get('honeylend_day_close_duration_seconds'));
    const connection = new Redis(system.redisUrl, { maxRetriesPerRequest: null });
    const servicing = new Queue(QUEUE_NAMES.servicing, { connection, prefix: createJobKeys(system.keyPrefix).queuePrefix });
    try {
      await servicing.add(JOB_NAMES.closeBusinessDay, {}, { jobId: 'metrics-test-close' });
    } finally {
      await servicing.close();
      connection.disconnect();
    }
    await eventually('the day close timed', async () => (total((await scrape('workers')).get('honeylend_day_close_duration_seconds')) > closesBefore ? true : undefined), 20_000);

    // Projection lag, seen from the api while the projection runner is paused and the log grows.
    const projections = system.processes.projections!;
    process.kill(projections.pid, 'SIGSTOP');
    try {
      await system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: 'Melchora Aquino' } });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const lagging = await scrape('api');
      expect(total(lagging.get('honeylend_projection_lag_events'))).toBeGreaterThan(0);
      expect(total(lagging.get('honeylend_projection_lag_seconds'))).toBeGreaterThanOrEqual(1);
    } finally {
      process.kill(projections.pid, 'SIGCONT');
    }
    await eventually('the projections caught up', async () => (total((await scrape('api')).get('honeylend_projection_lag_events')) === 0 ? true : undefined), 20_000);

    await scrapeAll();
    socket.close();
    await eventually('the socket gone from the gauge', async () => (total((await scrape('api')).get('honeylend_sockets')) === 0 ? true : undefined));

    for (const role of ROLES) {
      const seen = scrapes[role];
      for (const name of ROLE_FAMILIES[role]) {
        const versions = seen.map((families) => families.get(name));
        expect(versions.every(Boolean), `${role} exports ${name} at every scrape`).toBe(true);
        const signatures = new Set(versions.map((family) => JSON.stringify([...family!.samples])));
        // Moving: its samples differ between two scrapes. The lag gauges move on the api (the paused runner cannot be scraped).
        if (role === 'projections' && ['honeylend_projection_lag_events', 'honeylend_projection_lag_seconds'].includes(name)) continue;
        expect(signatures.size, `${role}'s ${name} moved`).toBeGreaterThan(1);
      }
    }

    // The figures say what happened, not just that something did.
    const api = scrapes.api.at(-1)!;
    const outcomes = [...api.get('honeylend_commands_total')!.samples.keys()].join('\n');
    expect(outcomes).toMatch(/outcome="accepted"/);
    expect(outcomes).toMatch(/outcome="refused",code="[A-Z_]+"/);
    expect(total(api.get('honeylend_command_conflict_retries_total'))).toBeGreaterThan(0);
    expect([...api.get('honeylend_http_request_duration_seconds')!.samples.keys()].join('\n')).toContain('route="/api/user/profile",status="200"');
    const workers = scrapes.workers.at(-1)!;
    expect(workers.get('honeylend_sms_failures_total')!.samples.get('honeylend_sms_failures_total{purpose="notification"}')).toBe(1);
    expect(workers.get('honeylend_sms_sent_total')!.samples.get('honeylend_sms_sent_total{purpose="notification"}')).toBe(1);
    expect(workers.get('honeylend_job_failures_total')!.samples.get('honeylend_job_failures_total{queue="notifications",final="false"}')).toBe(1);
  });

  it('exports every metric the provisioned Grafana dashboard queries', async () => {
    const exported = new Set((await scrapeAll()).flatMap((families) => [...families.values()].flatMap(queryableNames)));
    const dashboard = JSON.parse(readFileSync(new URL('../../../deploy/grafana/dashboards/honeylend.json', import.meta.url), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const queried = dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsQueriedBy(target.expr).map((metric) => ({ panel: panel.title, metric }))));
    expect(queried.length).toBeGreaterThan(20);
    for (const { panel, metric } of queried) expect(exported.has(metric), `"${panel}" queries ${metric}`).toBe(true);
  });
});
