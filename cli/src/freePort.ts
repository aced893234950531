import { createServer } from 'node:net';

/** A port nobody listens on right now on 127.0.0.1 (the OS picks it), for a process we are about to start. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
