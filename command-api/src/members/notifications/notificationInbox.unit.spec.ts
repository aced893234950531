import { describe, it } from 'vitest';
import { given } from '../../platform/commands/testing/givenWhenThen.js';
import { inboxDecider, type InboxEvent } from './notificationInbox.js';

const MEMBER = '6f1d2c3b-4a59-4e8f-9d7c-1b2a3c4d5e6f';
const FIRST = '11111111-1111-4111-8111-111111111111';
const SECOND = '22222222-2222-4222-8222-222222222222';
const NOW = '2026-11-25T10:00:00.000Z';
const read = (...notificationIds: string[]): InboxEvent => ({ type: 'NotificationsRead', data: { memberId: MEMBER, notificationIds, readAt: NOW } });
const mark = (...notificationIds: string[]) => ({ type: 'MarkNotificationsRead', memberId: MEMBER, notificationIds, now: NOW }) as const;

describe('the notification inbox (issue 17, item 5): reading is an event', () => {
  it('given nothing read, when the member reads one, then that one is recorded read', () => {
    given(inboxDecider, [])
      .when(mark(FIRST))
      .then([read(FIRST)]);
  });

  it('given one read, when it is read again (a retry, a second device), then nothing is recorded', () => {
    given(inboxDecider, [read(FIRST)])
      .when(mark(FIRST))
      .then([]);
  });

  it('given one read, when all are read, then only the others are recorded, once each', () => {
    given(inboxDecider, [read(FIRST)])
      .when(mark(FIRST, SECOND, SECOND))
      .then([read(SECOND)]);
  });

  it('given everything read, when all are read again, then nothing is recorded', () => {
    given(inboxDecider, [read(FIRST, SECOND)])
      .when(mark(FIRST, SECOND))
      .then([]);
    given(inboxDecider, []).when(mark()).then([]);
  });
});
