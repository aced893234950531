import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { createJobKeys } from '@honeylend/contracts';
import { resolveOtpSecret } from '@honeylend/contracts/server';
import { HttpSmsSender, createSmsSender } from '@honeylend/workers';
import { parseTrustedProxies } from '../../../command-api/src/platform/http/clientAddress.js';
import { loadConfig } from '../config.js';
import { commandOf, dependenciesOf, loadComposeFile, mountsOf, parseComposeFile, publishedPorts, type ComposeFile } from '../testing/composeFile.js';
import { insecureStoreProblems, isDatabaseService, isEventStoreNode, publishedDatabasePortProblems, redisPasswordProblems, storeExposureProblems } from '../testing/composeChecks.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COMPOSE_PATH = `${ROOT}docker-compose.yml`;

/**
 * What `deploy/generate-env.sh` writes (run here into a scratch .env, so the secrets are the
 * script's own and NODE_ENV=production is checked against them), plus the SMS gateway an operator adds.
 */
function generatedEnvironment(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'honeylend-env-'));
  try {
    const envFile = join(dir, '.env');
    execFileSync('sh', [`${ROOT}deploy/generate-env.sh`, envFile], { stdio: 'pipe' });
    const lines = readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='));
    return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const VARIABLES: Record<string, string> = {
  ...generatedEnvironment(),
  SMS_GATEWAY_URL: 'https://sms.example.ph/v1/messages',
  SMS_API_KEY: 'gateway-key',
};

const compose = loadComposeFile(COMPOSE_PATH, VARIABLES);
const services = compose.services;
const roleOf = (name: string) => commandOf(services[name]);
const roles = Object.keys(services).filter((name) => ['api', 'projections', 'workers'].includes(roleOf(name)));
const byRole = (role: string) => roles.filter((name) => roleOf(name) === role);

/** The compose file as text with one change, parsed as the real one is. */
function mutated(change: (raw: any) => void): ComposeFile {
  const raw = parse(readFileSync(COMPOSE_PATH, 'utf8'), { merge: true });
  change(raw);
  return parseComposeFile(JSON.stringify(raw), VARIABLES);
}

describe('docker-compose.yml', () => {
  it('runs EventStoreDB secure, with a published port for no store and a password on Redis', () => {
    expect(insecureStoreProblems(compose)).toEqual([]);
    expect(publishedDatabasePortProblems(compose)).toEqual([]);
    expect(redisPasswordProblems(compose)).toEqual([]);
  });

  it('is not the only compose file held to it: every compose file in the repository and deploy/ exposes no store', () => {
    const composeFiles = [ROOT, `${ROOT}deploy/`].flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => /^(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(name))
        .map((name) => `${dir}${name}`),
    );
    expect(composeFiles).toContain(COMPOSE_PATH);
    for (const file of composeFiles) expect(storeExposureProblems(loadComposeFile(file, VARIABLES)), file).toEqual([]);
  });

  it('is refused when a store is insecure, a database port is published or Redis has no password', () => {
    expect(insecureStoreProblems(mutated((raw) => (raw.services['eventstore-2'].environment.EVENTSTORE_INSECURE = 'true')))).toContain('eventstore-2 runs EventStoreDB insecure');
    expect(insecureStoreProblems(mutated((raw) => delete raw.services['eventstore-1'].environment.EVENTSTORE_CERTIFICATE_FILE))).toContain('eventstore-1 has no EVENTSTORE_CERTIFICATE_FILE');
    expect(insecureStoreProblems(mutated((raw) => (raw.services['api-1'].environment.EVENTSTORE_URL = 'esdb://eventstore-1:2113?tls=false')))).toEqual(
      expect.arrayContaining(['api-1 connects to EventStoreDB without TLS', 'api-1 connects to EventStoreDB without a user and password']),
    );
    expect(publishedDatabasePortProblems(mutated((raw) => (raw.services['eventstore-3'].ports = ['2113:2113'])))).toEqual(expect.arrayContaining(["eventstore-3 publishes EventStoreDB's port 2113"]));
    expect(publishedDatabasePortProblems(mutated((raw) => (raw.services.redis.ports = ['127.0.0.1:6380:6379'])))).toContain("redis publishes Redis's port 6379");
    expect(publishedDatabasePortProblems(mutated((raw) => (raw.services.postgres = { image: 'postgres:16', ports: ['5432:5432'] })))).toContain("postgres publishes PostgreSQL's port 5432");
    expect(redisPasswordProblems(mutated((raw) => (raw.services.redis.command = ['redis-server', '--appendonly', 'yes'])))).toContain('redis runs Redis without a password');
    expect(redisPasswordProblems(mutated((raw) => (raw.services.redis.environment.REDIS_PASSWORD = '')))).toContain('redis runs Redis without a password');
    expect(redisPasswordProblems(mutated((raw) => (raw.services['workers-2'].environment.REDIS_URL = 'redis://redis:6379')))).toContain("workers-2's REDIS_URL has no password");
  });

  it('makes the certificates in a one-shot service of its own, which every node waits for and trusts', () => {
    const certs = services['eventstore-certs'];
    expect(certs.restart).toBe('no');
    const script = readFileSync(`${ROOT}deploy/eventstore/generate-certs.sh`, 'utf8');
    expect(script).toContain('es-gencert-cli create-ca');
    const nodes = Object.entries(services).filter(([, service]) => isEventStoreNode(service));
    expect(nodes.map(([name]) => name)).toEqual(['eventstore-1', 'eventstore-2', 'eventstore-3']);
    for (const [name, node] of nodes) {
      const env = node.environment!;
      expect(dependenciesOf(node)['eventstore-certs'], name).toBe('service_completed_successfully');
      expect(mountsOf(node)).toContainEqual({ source: 'eventstore-certs', target: '/certs' });
      const n = name.slice(-1);
      expect(env.EVENTSTORE_CERTIFICATE_FILE).toBe(`/certs/node${n}/node.crt`);
      expect(script, `a certificate for ${name} naming its host`).toMatch(/-dns-names "eventstore-\$n/);
      expect(env.EVENTSTORE_CLUSTER_SIZE).toBe('3');
      // Gossip: each node knows the other two, at their fixed addresses.
      const others = nodes.filter(([other]) => other !== name).map(([, other]) => `${(other.networks as Record<string, { ipv4_address: string }>).default.ipv4_address}:2113`);
      expect(env.EVENTSTORE_GOSSIP_SEED.split(',').sort()).toEqual(others.sort());
      expect(env.EVENTSTORE_DEFAULT_ADMIN_PASSWORD).toBe(VARIABLES.EVENTSTORE_ADMIN_PASSWORD);
      expect(env.EVENTSTORE_DEFAULT_OPS_PASSWORD).toBe(VARIABLES.EVENTSTORE_OPS_PASSWORD);
    }
  });

  it('has the roles connect to the cluster over TLS as an admin-level user with a password, reading from the leader', () => {
    const script = readFileSync(`${ROOT}deploy/eventstore/create-app-user.sh`, 'utf8');
    // The user the roles connect as is made by the eventstore-users service, in $admins: $all is read by the projections (and the api's lag).
    expect(script).toMatch(/"loginName":"honeylend".*"groups":\["\$admins"\]/);
    expect(services['eventstore-users'].environment!.EVENTSTORE_APP_PASSWORD).toBe(VARIABLES.EVENTSTORE_APP_PASSWORD);
    for (const name of [...byRole('api'), ...byRole('projections')]) {
      const service = services[name];
      const options = parseConnectionString(service.environment!.EVENTSTORE_URL);
      expect(options).toMatchObject({ tls: true, nodePreference: 'leader', defaultCredentials: { username: 'honeylend', password: VARIABLES.EVENTSTORE_APP_PASSWORD } });
      expect(options.hosts.map((host) => host.address).sort()).toEqual(['eventstore-1', 'eventstore-2', 'eventstore-3']);
      // The CA file it names is the one the certificates service wrote, mounted read-only.
      expect(options.tlsCAFile).toBe('/certs/ca/ca.crt');
      expect(mountsOf(service)).toContainEqual({ source: 'eventstore-ca', target: '/certs/ca' });
      expect(dependenciesOf(service)['eventstore-users']).toBe('service_completed_successfully');
    }
  });

  it('gives Redis persistence and the noeviction policy BullMQ needs, and every role its password', () => {
    const redis = services.redis;
    expect(commandOf(redis)).toMatch(/--appendonly yes/);
    expect(commandOf(redis)).toMatch(/--maxmemory-policy noeviction/);
    expect(mountsOf(redis)).toContainEqual({ source: 'redis-data', target: '/data' });
    for (const name of roles) {
      const url = services[name].environment!.REDIS_URL;
      // ioredis reads the password from the URL as given.
      const client = new Redis(url, { lazyConnect: true });
      expect(client.options.password, name).toBe(VARIABLES.REDIS_PASSWORD);
      expect(client.options.host).toBe('redis');
      client.disconnect();
    }
  });

  it('gives every role a complete environment that its configuration accepts with NODE_ENV=production', () => {
    expect(byRole('api')).toEqual(['api-1', 'api-2']);
    expect(byRole('projections')).toEqual(['projections-1', 'projections-2']);
    expect(byRole('workers')).toEqual(['workers-1', 'workers-2']);
    const nodeNames = new Set<string>();
    for (const name of roles) {
      const env = services[name].environment!;
      expect(env.NODE_ENV).toBe('production');
      const config = loadConfig(env);
      expect(config).toMatchObject({ isProduction: true, metrics: { port: 9464, host: '0.0.0.0' }, jwtSecret: { secret: VARIABLES.JWT_SECRET }, superadmin: { password: VARIABLES.ADMIN_PASSWORD, generated: false } });
      expect(config.warnings).toEqual([]);
      expect(resolveOtpSecret(env)).toEqual({ secret: VARIABLES.OTP_SECRET, isDevelopmentDefault: false });
      expect(env.NODE_NAME).toBe(name);
      nodeNames.add(env.NODE_NAME);
      if (roleOf(name) === 'workers') {
        const sender = createSmsSender(env, { redis: {} as Redis, keys: createJobKeys(''), logger: { info() {}, warn() {}, error() {} } });
        expect(sender).toBeInstanceOf(HttpSmsSender);
      } else {
        expect(config.eventStoreUrl).toBe(env.EVENTSTORE_URL);
      }
      if (roleOf(name) === 'api') {
        const proxyAddress = (services.proxy.networks as Record<string, { ipv4_address: string }>).default.ipv4_address;
        expect(parseTrustedProxies(env.TRUSTED_PROXIES)).toEqual([proxyAddress]);
        expect(mountsOf(services[name])).toContainEqual({ source: 'uploads', target: env.UPLOAD_DIR });
      }
    }
    expect(nodeNames.size).toBe(roles.length);
  });

  it('has health checks on every long-running service, dependencies that exist, and the proxy as the only public entrance', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries(dependenciesOf(service))) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        if (condition === 'service_healthy') expect(services[dependency].healthcheck?.test, `${dependency} has a health check`).toBeDefined();
        if (condition === 'service_completed_successfully') expect(services[dependency].restart).toBe('no');
      }
      if (service.restart !== 'no') expect(service.healthcheck?.test, `${name} has a health check`).toBeDefined();
      for (const port of publishedPorts(service)) {
        if (name !== 'proxy') expect(port.hostIp, `${name} publishes ${port.target} on this host's loopback only`).toBe('127.0.0.1');
      }
      for (const { source } of mountsOf(service)) {
        if (source.startsWith('./')) expect(existsSync(`${ROOT}${source.slice(2)}`), `${name} mounts ${source}`).toBe(true);
        else expect(Object.keys(compose.volumes), `${name}'s volume ${source} is declared`).toContain(source);
      }
      if (isDatabaseService(service)) expect(service.ports ?? []).toEqual([]);
    }
    expect(
      publishedPorts(services.proxy)
        .map((port) => port.target)
        .sort(),
    ).toEqual([443, 80]);
    for (const api of byRole('api')) expect(dependenciesOf(services.proxy)[api]).toBe('service_healthy');
    const caddyfile = readFileSync(`${ROOT}deploy/caddy/Caddyfile`, 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy api-1:3000 api-2:3000/);
    // Each session to one API node: its commands find the state their node's last append left.
    expect(caddyfile).toMatch(/lb_policy header Authorization \{\s*fallback least_conn\s*\}/);
  });

  it('has Prometheus scrape every role on its METRICS_PORT, and Grafana provisioned with it and the Honeylend dashboard', () => {
    const prometheus = parse(readFileSync(`${ROOT}deploy/prometheus/prometheus.yml`, 'utf8')) as { scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[] };
    const scraped = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets.map((target) => ({ job: job.job_name, target }))));
    expect(scraped.map(({ target }) => target).sort()).toEqual(roles.map((name) => `${name}:${services[name].environment!.METRICS_PORT}`).sort());
    for (const { job, target } of scraped) expect(roleOf(target.split(':')[0])).toBe(job);

    const datasources = parse(readFileSync(`${ROOT}deploy/grafana/provisioning/datasources/prometheus.yml`, 'utf8')) as { datasources: { uid: string; url: string }[] };
    expect(datasources.datasources[0].url).toBe('http://prometheus:9090');
    const dashboard = JSON.parse(readFileSync(`${ROOT}deploy/grafana/dashboards/honeylend.json`, 'utf8')) as { panels: { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string }[] }[] };
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    for (const panel of panels) {
      expect(panel.datasource?.uid, panel.title).toBe(datasources.datasources[0].uid);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    const titles = panels.map((panel) => panel.title).join('\n');
    for (const topic of [/Requests per second/, /Latency p50 \/ p99/, /Projection lag/, /sockets/i, /Queue/, /Errors/]) expect(titles).toMatch(topic);
    const grafana = services.grafana;
    expect(mountsOf(grafana)).toContainEqual({ source: './deploy/grafana/dashboards', target: '/var/lib/grafana/dashboards' });
    const provider = parse(readFileSync(`${ROOT}deploy/grafana/provisioning/dashboards/honeylend.yml`, 'utf8')) as { providers: { options: { path: string } }[] };
    expect(provider.providers[0].options.path).toBe('/var/lib/grafana/dashboards');
  });
});
