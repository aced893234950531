import { describe, expect, it } from 'vitest';
import { toApiError } from '../../platform/http/errorHandling.js';
import { updateAdminBody } from './adminAccountBodies.js';

describe('PATCH /api/admin/users/:id body', () => {
  it('must change something (a rule of the body itself, so it is in the schema)', () => {
    const empty = updateAdminBody.safeParse({ email: '', phone: null });
    expect(empty.success).toBe(false);
    expect(toApiError(empty.error).toBody()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Send the email, password, name or phone to change' });
    expect(updateAdminBody.safeParse({ fullName: 'Jose Rizal' }).success).toBe(true);
  });
});
