import { describe, expect, it } from 'vitest';
import { changedFields, checkWith, MEMBER_PROFILE_FIELDS } from './memberFormRules';

const schemaOf = (name: string) => MEMBER_PROFILE_FIELDS.find((field) => field.name === name)!.schema;

describe('the admin member form', () => {
  it("checks each field with spec §5's messages", () => {
    expect(() => checkWith(schemaOf('address'), 'Short')).toThrow('Address is required');
    expect(() => checkWith(schemaOf('referencePhone'), '0917')).toThrow('Reference phone is required');
    expect(() => checkWith(schemaOf('bankAccountNumber'), '12345')).toThrow('Account number is required');
    expect(() => checkWith(schemaOf('email'), 'not-an-email')).toThrow('Valid email is required');
    expect(() => checkWith(schemaOf('phone'), '0917')).toThrow('Phone number is required');
    expect(() => checkWith(schemaOf('address'), '45 Mabini Street, Vigan City')).not.toThrow();
  });

  it('sends only the fields that changed, trimmed, and a cleared one as null', () => {
    const before = { fullName: 'Maria Santos', address: null, bankName: 'BPI', monthlySalary: 30000 };
    const after = { fullName: 'Maria Santos ', address: '  12 Kalaw Avenue, Manila ', bankName: '', monthlySalary: 30000 };
    expect(changedFields(before, after)).toEqual({ address: '12 Kalaw Avenue, Manila', bankName: null });
  });
});
