import { MESSAGES, memberStatusSchema, passwordField, phoneField, profileFields } from '@honeylend/contracts';
import type { Rule } from 'antd/es/form';

/** The fields of the admin member form and the spec §5 rule each one is checked with (the server's own schema). */
export const MEMBER_PROFILE_FIELDS = [
  { name: 'fullName', label: 'Full name', schema: profileFields.fullName },
  { name: 'email', label: 'Email', schema: profileFields.email },
  { name: 'phone', label: 'Mobile number', schema: phoneField },
  { name: 'address', label: 'Address', schema: profileFields.address },
  { name: 'countryOfWork', label: 'Country of work', schema: profileFields.countryOfWork },
  { name: 'monthlySalary', label: 'Monthly salary (₱)', schema: profileFields.monthlySalary },
  { name: 'referenceName', label: 'Reference name', schema: profileFields.referenceName },
  { name: 'referencePhone', label: 'Reference phone', schema: profileFields.referencePhone },
  { name: 'bankName', label: 'Bank name', schema: profileFields.bankName },
  { name: 'bankAccountNumber', label: 'Account number', schema: profileFields.bankAccountNumber },
] as const;

export type MemberProfileField = (typeof MEMBER_PROFILE_FIELDS)[number]['name'];

export const CREDIT_SCORE_MESSAGE = 'Credit score must be between 300 and 850';
export const STATUS_MESSAGE = 'Status must be active, pending or suspended';

interface Schema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/** Checks a value with a zod schema and throws its first message. */
export function checkWith(schema: Schema, value: unknown, emptyMessage?: string): void {
  if ((value === undefined || value === null || value === '') && emptyMessage) throw new Error(emptyMessage);
  const result = schema.safeParse(value ?? undefined);
  if (!result.success) throw new Error(result.error?.issues[0]?.message ?? 'Invalid value');
}

/** An antd rule that runs a zod schema and shows its first message. */
export function schemaRule(schema: Schema, emptyMessage?: string): Rule {
  return { validator: async (_rule, value: unknown) => checkWith(schema, value, emptyMessage) };
}

/** An edit's rule: only a changed value is checked, so a field the member never filled may stay empty. */
export function changedValueRule(schema: Schema, initial: unknown): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (given(value) !== given(initial)) checkWith(schema, value);
    },
  };
}

export const creditScoreRule: Rule = {
  validator: async (_rule, value: unknown) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 300 || value > 850) throw new Error(CREDIT_SCORE_MESSAGE);
  },
};

export const statusRule = schemaRule(memberStatusSchema, STATUS_MESSAGE);
export const newMemberRules = {
  phone: schemaRule(phoneField, MESSAGES.phoneRequired),
  password: schemaRule(passwordField, MESSAGES.passwordTooShort),
  fullName: schemaRule(profileFields.fullName, MESSAGES.fullNameRequired),
  email: schemaRule(profileFields.email),
};

/** Empty inputs are "not given"; text is trimmed. */
export function given(value: unknown): unknown {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value ?? undefined;
}

/**
 * What an edit sends: only the fields whose value differs from the member's, so an admin
 * correcting the address never re-sends (and re-validates) a field nobody touched.
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(after)) {
    const now = given(value);
    const was = given(before[name]);
    if (now !== was) changes[name] = now ?? null;
  }
  return changes;
}
