// The client's own parser of `esdb://` connection strings (not exported from its index).
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { commandOf, publishedPorts, type ComposeFile, type ComposeService } from './composeFile.js';

/** Ports of the stores, inside their containers: none may be published on the host. */
const DATABASE_PORTS = new Map<number, string>([
  [2113, 'EventStoreDB'],
  [1113, 'EventStoreDB (TCP)'],
  [1112, 'EventStoreDB (replication)'],
  [6379, 'Redis'],
  [5432, 'PostgreSQL'],
]);
const DATABASE_IMAGE = /^(?:[\w.-]+\/)*(?:eventstore|redis|postgres|valkey|keydb)(?::|@|$)/;

export const isDatabaseService = (service: ComposeService): boolean => DATABASE_IMAGE.test(service.image ?? '');
export const isEventStoreNode = (service: ComposeService): boolean => /(^|\/)eventstore:/.test(service.image ?? '');
export const isRedis = (service: ComposeService): boolean => /(^|\/)(redis|valkey):/.test(service.image ?? '');

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());

/** EventStoreDB run insecure anywhere: a node without TLS, or a role connecting without TLS or without credentials. */
export function insecureStoreProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    const env = service.environment ?? {};
    if (truthy(env.EVENTSTORE_INSECURE) || /--insecure\b/.test(commandOf(service))) problems.push(`${name} runs EventStoreDB insecure`);
    if (isEventStoreNode(service)) {
      for (const setting of ['EVENTSTORE_CERTIFICATE_FILE', 'EVENTSTORE_CERTIFICATE_PRIVATE_KEY_FILE', 'EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH']) {
        if (!env[setting]) problems.push(`${name} has no ${setting}`);
      }
    }
    const url = env.EVENTSTORE_URL;
    if (url !== undefined && url.startsWith('esdb')) {
      let options: ReturnType<typeof parseConnectionString>;
      try {
        options = parseConnectionString(url);
      } catch (error) {
        problems.push(`${name}'s EVENTSTORE_URL does not parse: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      if (options.tls === false) problems.push(`${name} connects to EventStoreDB without TLS`);
      if (options.tlsVerifyCert === false) problems.push(`${name} does not verify EventStoreDB's certificate`);
      if (!options.defaultCredentials?.username || !options.defaultCredentials.password) problems.push(`${name} connects to EventStoreDB without a user and password`);
    }
  }
  return problems;
}

/** A store's port reachable from outside the compose network. */
export function publishedDatabasePortProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    if (isDatabaseService(service) && (service.ports ?? []).length > 0) problems.push(`${name} (a database) publishes ports ${JSON.stringify(service.ports)}`);
    if (isDatabaseService(service) && service.network_mode === 'host') problems.push(`${name} (a database) shares the host's network`);
    for (const port of publishedPorts(service)) {
      const store = DATABASE_PORTS.get(port.target);
      if (store) problems.push(`${name} publishes ${store}'s port ${port.target}`);
    }
  }
  return problems;
}

/** A Redis anyone on the network could use: no password on the server, or a role's REDIS_URL without one. */
export function redisPasswordProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  for (const [name, service] of Object.entries(compose.services)) {
    const env = service.environment ?? {};
    if (isRedis(service)) {
      const given = /--requirepass\s+("([^"]*)"|'([^']*)'|(\S+))/.exec(commandOf(service));
      let password = given ? (given[2] ?? given[3] ?? given[4] ?? '') : '';
      // A reference to the container's own environment ("$REDIS_PASSWORD") is resolved there.
      const reference = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(password);
      if (reference) password = env[reference[1]] ?? '';
      if (!password) problems.push(`${name} runs Redis without a password`);
    }
    if (env.REDIS_URL !== undefined) {
      const url = URL.canParse(env.REDIS_URL) ? new URL(env.REDIS_URL) : null;
      if (!url?.password) problems.push(`${name}'s REDIS_URL has no password`);
    }
  }
  return problems;
}

/** Every reason a compose file would expose a store: the three checks above, together. */
export function storeExposureProblems(compose: ComposeFile): string[] {
  return [...insecureStoreProblems(compose), ...publishedDatabasePortProblems(compose), ...redisPasswordProblems(compose)];
}
