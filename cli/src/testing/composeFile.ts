import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The parts of a Compose service the deployment checks read. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  ports?: (string | { target?: number; published?: string | number; host_ip?: string })[];
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  restart?: string;
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
  network_mode?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks: Record<string, unknown>;
}

/**
 * Compose's variable interpolation on every string value: `${NAME}`, `${NAME:-default}`,
 * `${NAME-default}`, `${NAME:?message}` (a missing required variable throws its message, as
 * `docker compose` refuses to start), `$NAME`, and `$$` for a literal `$`.
 */
export function interpolate(value: string, variables: Readonly<Record<string, string>>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, braced?: string, operator?: string, argument?: string, bare?: string) => {
    if (match === '$$') return '$';
    const name = (braced ?? bare)!;
    const set = variables[name];
    const empty = set === undefined || (operator?.startsWith(':') === true && set === '');
    if (operator?.endsWith('?') && empty) throw new Error(`required variable ${name} is missing: ${argument}`);
    if (operator?.endsWith('-') && empty) return argument ?? '';
    return set ?? '';
  });
}

function interpolateAll(node: unknown, variables: Readonly<Record<string, string>>): unknown {
  if (typeof node === 'string') return interpolate(node, variables);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, variables));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, variables)]));
  return node;
}

function normalizedEnvironment(environment: unknown): Record<string, string> {
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((entry: string) => [entry.split('=')[0], entry.slice(entry.indexOf('=') + 1)]));
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- compose environment values are YAML scalars (string, number, boolean)
  return Object.fromEntries(Object.entries((environment ?? {}) as Record<string, unknown>).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/** Parses a compose file as `docker compose config` would read it (YAML merge keys, interpolation, environment as a map). */
export function parseComposeFile(text: string, variables: Readonly<Record<string, string>>): ComposeFile {
  const raw = parse(text, { merge: true }) as Record<string, unknown>;
  const file = interpolateAll(raw, variables) as { services?: Record<string, ComposeService>; volumes?: Record<string, unknown>; networks?: Record<string, unknown> };
  const services = Object.fromEntries(Object.entries(file.services ?? {}).map(([name, service]) => [name, { ...service, environment: normalizedEnvironment(service.environment) }]));
  return { services, volumes: file.volumes ?? {}, networks: file.networks ?? {} };
}

export function loadComposeFile(path: string, variables: Readonly<Record<string, string>>): ComposeFile {
  return parseComposeFile(readFileSync(path, 'utf8'), variables);
}

/** The container ports a service publishes on the host. */
export function publishedPorts(service: ComposeService): { hostIp: string | null; published: string; target: number }[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'object') return { hostIp: port.host_ip ?? null, published: String(port.published ?? ''), target: Number(port.target) };
    const parts = String(port).split(':');
    const target = Number(parts.at(-1)!.split('/')[0].split('-')[0]);
    if (parts.length === 1) return { hostIp: null, published: '', target };
    if (parts.length === 2) return { hostIp: null, published: parts[0], target };
    return { hostIp: parts.slice(0, -2).join(':'), published: parts.at(-2)!, target };
  });
}

export function dependenciesOf(service: ComposeService): Record<string, string> {
  const dependsOn = service.depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(dependsOn).map(([name, options]) => [name, options?.condition ?? 'service_started']));
}

/** `source:target[:mode]` or the long form, as { source, target }. */
export function mountsOf(service: ComposeService): { source: string; target: string }[] {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume === 'object') return { source: volume.source ?? '', target: volume.target ?? '' };
    const [source, target] = volume.split(':');
    return { source: source, target: target ?? source };
  });
}

export function commandOf(service: ComposeService): string {
  return Array.isArray(service.command) ? service.command.join(' ') : (service.command ?? '');
}
