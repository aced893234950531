import type { Projection } from './projection.js';
import { adminsProjection } from './admins/adminsProjection.js';
import { membersProjection } from './members/membersProjection.js';

export * from './projection.js';
export * from './projectionRunner.js';
export * from './readModelTransaction.js';
export { membersProjection, adminsProjection };

export const allProjections: Projection[] = [membersProjection, adminsProjection];
export * from './rebuild.js';
