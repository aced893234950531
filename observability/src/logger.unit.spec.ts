import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type LogLevel } from './logger.js';

function capture(level: LogLevel = 'info') {
  const lines: string[] = [];
  const logger = createLogger('api', { level, node: 'node-1', write: (line) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the role logger', () => {
  it('writes one JSON object per line with the level, an ISO time, the role and the node', () => {
    const { logger, parsed } = capture();
    logger.info('api listening', { port: 3000 });
    const [line] = parsed();
    expect(line).toMatchObject({ level: 'info', role: 'api', node: 'node-1', msg: 'api listening', port: 3000 });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
  });

  it("stamps each line with the clock's millisecond, also when lines share one", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { logger, parsed } = capture();
    vi.setSystemTime(new Date('2026-11-25T23:10:00.123Z'));
    logger.info('first');
    logger.info('same millisecond');
    vi.setSystemTime(new Date('2026-11-25T23:10:00.124Z'));
    logger.info('next millisecond');
    vi.setSystemTime(new Date('2026-11-26T00:00:00.000Z'));
    logger.info('next day');
    expect(parsed().map((line) => line.time)).toEqual(['2026-11-25T23:10:00.123Z', '2026-11-25T23:10:00.123Z', '2026-11-25T23:10:00.124Z', '2026-11-26T00:00:00.000Z']);
  });

  it('writes only lines at or above LOG_LEVEL, and says which levels are on', () => {
    const { logger, parsed } = capture('warn');
    logger.debug('not written');
    logger.info('not written either');
    logger.warn('written');
    expect(parsed().map((line) => line.msg)).toEqual(['written']);
    expect(logger.isLevelEnabled('info')).toBe(false);
    expect(logger.isLevelEnabled('error')).toBe(true);
    expect(capture('silent').logger.isLevelEnabled('silent')).toBe(false);
  });

  it('carries a child’s bindings on every line it writes', () => {
    const { logger, parsed } = capture();
    logger.child({ requestId: 'req-12345678' }).warn('slow');
    expect(parsed()[0]).toMatchObject({ requestId: 'req-12345678', role: 'api', msg: 'slow' });
  });

  it('redacts credentials wherever the lines put them: top level, request bodies, headers, query strings, job data, error details', () => {
    const { logger, lines } = capture();
    logger.info('everything', {
      password: 'pw-top',
      token: 'token-top',
      body: { password: 'pw-body', newPassword: 'pw-new', currentPassword: 'pw-current', otp: '123456', code: '654321', fullName: 'Shown' },
      headers: { authorization: 'Bearer abc.def', cookie: 'sid=1', 'set-cookie': 'sid=2', 'x-api-key': 'key-header' },
      query: { sig: 'sig-query', token: 'token-query' },
      job: { data: { otp: 'otp-job' } },
      details: { fields: { password: 'pw-details' } },
      error: { secret: 'secret-error', apiKey: 'key-error' },
    });
    const text = lines.join('');
    for (const value of [
      'pw-top',
      'token-top',
      'pw-body',
      'pw-new',
      'pw-current',
      '123456',
      '654321',
      'Bearer abc.def',
      'sid=1',
      'sid=2',
      'key-header',
      'sig-query',
      'token-query',
      'otp-job',
      'pw-details',
      'secret-error',
      'key-error',
    ]) {
      expect(text).not.toContain(value);
    }
    expect(text).toContain('Shown');
    expect(text).toContain('[redacted]');
  });
});
