import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The built logger, as the roles run it: a child process whose stdout is a pipe, driven line by line.
const LOGGER = fileURLToPath(new URL('../dist/logger.js', import.meta.url));
const SCRIPT = `
import { createLogger } from ${JSON.stringify(LOGGER)};
const logger = createLogger('api', { node: 'node-1', pretty: false, flushEveryMs: Number(process.argv[1]) });
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  for (const command of chunk.split('\\n').filter(Boolean)) {
    const [what, text] = command.split(' ');
    if (what === 'info') logger.info(text);
    if (what === 'warn') logger.warn(text);
    if (what === 'exit') process.exit(0);
    if (what === 'throw') throw new Error(text);
  }
  process.stderr.write('done\\n');
});
`;

interface Role {
  child: ChildProcessWithoutNullStreams;
  messages(): string[];
  send(command: string): Promise<void>;
  exited: Promise<number | null>;
}

const running: Role[] = [];

function startRole(flushEveryMs: number): Role {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, String(flushEveryMs)], { stdio: 'pipe' });
  let out = '';
  let acks = 0;
  const waiting: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    acks += chunk.toString().split('done').length - 1;
    while (waiting.length > 0 && acks > 0) {
      acks--;
      waiting.shift()!();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const role: Role = {
    child,
    exited,
    messages: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    send: (command) =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${command}\n`);
      }),
  };
  running.push(role);
  return role;
}

async function eventually(check: () => void, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

afterEach(() => {
  for (const role of running.splice(0)) role.child.kill('SIGKILL');
});

describe('the role logger on stdout', () => {
  it('gathers info lines instead of writing each, and writes them, in order, with the first line at warn', async () => {
    const role = startRole(60_000);
    await role.send('info first');
    await role.send('info second');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(role.messages()).toEqual([]);
    await role.send('warn third');
    await eventually(() => expect(role.messages()).toEqual(['first', 'second', 'third']));
  });

  it('writes what waits in the buffer after the flush interval when the process is quiet', async () => {
    const role = startRole(100);
    await role.send('info quiet');
    await eventually(() => expect(role.messages()).toEqual(['quiet']));
  });

  it('writes what waits in the buffer when the process exits, and when it dies of an uncaught exception', async () => {
    const exiting = startRole(60_000);
    exiting.child.stdin.write('info before-exit\nexit\n');
    expect(await exiting.exited).toBe(0);
    expect(exiting.messages()).toEqual(['before-exit']);

    const crashing = startRole(60_000);
    crashing.child.stdin.write('info before-crash\nthrow boom\n');
    expect(await crashing.exited).toBe(1);
    expect(crashing.messages()).toEqual(['before-crash']);
  });
});
