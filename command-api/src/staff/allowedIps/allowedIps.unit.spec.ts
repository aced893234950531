import { describe, it } from 'vitest';
import { given } from '../../platform/commands/testing/givenWhenThen.js';
import { allowedIpsDecider, type AllowedIpEvent } from './allowedIps.js';

const now = '2026-11-22T08:00:00.000Z';
const office = 'c0a80101-0000-4000-8000-000000000001';
const home = 'c0a80101-0000-4000-8000-000000000002';
const added = (ruleId: string, ipAddress: string): AllowedIpEvent => ({ type: 'AllowedIpAdded', data: { ruleId, ipAddress, description: '', addedAt: now } });
const add = (ruleId: string, ipAddress: string, callerAddress: string) => ({ type: 'AddAllowedIp' as const, ruleId, ipAddress, description: '', callerAddress, now });

describe('IP allow-list decider', () => {
  it('adds a first rule that covers the caller', () => {
    given(allowedIpsDecider, [])
      .when(add(office, '203.0.113.0/24', '203.0.113.9'))
      .then([added(office, '203.0.113.0/24')]);
  });

  it('refuses a rule set that would lock the caller out', () => {
    given(allowedIpsDecider, [])
      .when(add(office, '203.0.113.0/24', '198.51.100.7'))
      .thenThrows('SELF_LOCKOUT');
  });

  it('adds further rules freely while the caller stays covered, but never the same address twice', () => {
    given(allowedIpsDecider, [added(office, '203.0.113.0/24')])
      .when(add(home, '198.51.100.7', '203.0.113.9'))
      .then([added(home, '198.51.100.7')]);
    given(allowedIpsDecider, [added(office, '203.0.113.0/24')])
      .when(add(home, '203.0.113.0/24', '203.0.113.9'))
      .thenThrows('ALLOWED_IP_EXISTS');
  });

  it('removes a rule unless that leaves the caller outside a non-empty list; emptying the list is fine', () => {
    const both = [added(office, '203.0.113.0/24'), added(home, '198.51.100.7')];
    given(allowedIpsDecider, both)
      .when({ type: 'RemoveAllowedIp', ruleId: home, callerAddress: '203.0.113.9', now })
      .then([{ type: 'AllowedIpRemoved', data: { ruleId: home, ipAddress: '198.51.100.7', removedAt: now } }]);
    given(allowedIpsDecider, both).when({ type: 'RemoveAllowedIp', ruleId: office, callerAddress: '203.0.113.9', now }).thenThrows('SELF_LOCKOUT');
    given(allowedIpsDecider, [added(office, '203.0.113.0/24')])
      .when({ type: 'RemoveAllowedIp', ruleId: office, callerAddress: '203.0.113.9', now })
      .then([{ type: 'AllowedIpRemoved', data: { ruleId: office, ipAddress: '203.0.113.0/24', removedAt: now } }]);
    given(allowedIpsDecider, both).when({ type: 'RemoveAllowedIp', ruleId: 'c0a80101-0000-4000-8000-000000000003', callerAddress: '203.0.113.9', now }).thenThrows('ALLOWED_IP_NOT_FOUND');
  });
});
