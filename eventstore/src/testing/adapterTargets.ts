import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import type { ConformanceTarget } from '../conformance.js';
import { EsdbEventStore } from '../esdb/esdbEventStore.js';
import { PgliteEventStore } from '../pgliteEventStore.js';
import { PostgresEventStore } from '../postgresEventStore.js';

/** Where each adapter's tests find their database, and why one is skipped when it cannot be reached. */

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const ESDB_IMAGE = 'eventstore/eventstore:24.10';

export type Reachability = { reachable: true } | { reachable: false; reason: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

export function randomSchemaName(purpose: string): string {
  return `es_${purpose}_${randomBytes(5).toString('hex')}`;
}

export async function postgresReachability(url = DATABASE_URL): Promise<Reachability> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: `PostgreSQL at ${new URL(url).host} does not answer (${messageOf(error)})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function dropSchemas(url: string, schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** PGlite in a fresh temporary directory (the path `lending start` uses), emptied afterwards. */
export function pgliteTarget(): ConformanceTarget {
  let directory: string | undefined;
  return {
    name: 'PGlite',
    integrity: { appendOnly: 'trigger', hashChain: 'stored', densePositions: true },
    async open() {
      directory = await mkdtemp(join(tmpdir(), 'honeylend-eventstore-'));
      return PgliteEventStore.open(directory);
    },
    openEmpty: () => PgliteEventStore.open('memory'),
    async dispose() {
      if (directory) await rm(directory, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL in schemas of this run's own, dropped afterwards. */
export function postgresTarget(url = DATABASE_URL): ConformanceTarget {
  const schemas: string[] = [];
  const openInNewSchema = (purpose: string) => {
    const schema = randomSchemaName(purpose);
    schemas.push(schema);
    return PostgresEventStore.open(url, { schema });
  };
  return {
    name: 'PostgreSQL',
    integrity: { appendOnly: 'trigger', hashChain: 'stored', densePositions: true },
    open: () => openInNewSchema('conformance'),
    openEmpty: () => openInNewSchema('empty'),
    dispose: () => dropSchemas(url, schemas),
  };
}

async function esdbAnswers(url: string): Promise<string | null> {
  try {
    const store = await EsdbEventStore.open(url);
    await store.close();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

async function dockerProblem(): Promise<string | null> {
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * EventStoreDB at ESDB_URL when it answers, else throwaway containers when a Docker engine
 * answers, else the reason it cannot be tested. Only containers give an empty store (a fresh
 * in-memory server): the server at ESDB_URL is shared, so the suite never assumes it empty.
 */
export async function esdbTarget(): Promise<ConformanceTarget | { reason: string }> {
  const configuredUrl = process.env.ESDB_URL;
  const configuredProblem = configuredUrl ? await esdbAnswers(configuredUrl) : 'no ESDB_URL';
  if (configuredUrl && configuredProblem === null) {
    return { name: 'EventStoreDB', integrity: { appendOnly: 'store', hashChain: 'computed', densePositions: false }, open: () => EsdbEventStore.open(configuredUrl) };
  }
  const docker = await dockerProblem();
  if (docker !== null) {
    const esdbPart = configuredUrl ? `ESDB_URL does not answer (${configuredProblem})` : 'no ESDB_URL';
    return { reason: `${esdbPart} and no Docker engine (${docker})` };
  }
  const containers: StartedTestContainer[] = [];
  const startServer = async () => {
    const container = await new GenericContainer(ESDB_IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
        EVENTSTORE_CLUSTER_SIZE: '1',
        EVENTSTORE_HTTP_PORT: '2113',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((status) => status >= 200 && status < 300))
      .withStartupTimeout(180_000)
      .start();
    containers.push(container);
    return EsdbEventStore.open(`esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`);
  };
  return {
    name: 'EventStoreDB',
    integrity: { appendOnly: 'store', hashChain: 'computed', densePositions: false },
    openTimeoutMs: 240_000,
    open: startServer,
    openEmpty: startServer,
    async dispose() {
      await Promise.all(containers.map((container) => container.stop()));
    },
  };
}
