import type { AuditJobUpdate } from '@honeylend/contracts';
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { readToken } from '../shared/authToken';

let socket: Socket | null = null;
let users = 0;

/**
 * The workspace's Socket.IO connection: the server puts auditors (and the main admin) in the
 * audit room, which hears the verification's and the book's progress as the jobs run, on
 * whichever node they run. It carries no member documents.
 */
function auditSocket(): Socket {
  socket ??= io('', {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 10_000,
    auth: (send) => send({ token: readToken() }),
  });
  return socket;
}

/** Calls `handler` for every audit job update while the component is mounted (the latest handler). */
export function useAuditJobUpdates(handler: (update: AuditJobUpdate) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const connection = auditSocket();
    users++;
    const listener = (update: AuditJobUpdate) => latest.current(update);
    connection.on('audit.job', listener);
    return () => {
      connection.off('audit.job', listener);
      if (--users === 0) {
        connection.disconnect();
        socket = null;
      }
    };
  }, []);
}
