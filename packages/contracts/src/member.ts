import { Type, type Static } from '@sinclair/typebox';
import { CodeEnum } from './common.ts';

export const StaffDcLimIncDecRequest = Type.Object(
  {
    mbrNo: Type.String({ minLength: 1, maxLength: 20, description: 'member number' }),
    rsrvUseGbCd: CodeEnum('earn/use class (ME016)', {
      '10': 'increase: restores limit (e.g. on a cancel)',
      '20': 'decrease: uses limit (on an order)',
    }),
    ocurAmt: Type.Integer({ format: 'int64', minimum: 1, description: 'occurrence amount, a positive whole number' }),
    ordNo: Type.String({ minLength: 1, maxLength: 20, description: 'order number' }),
    claimNo: Type.Optional(Type.String({ maxLength: 20, description: 'claim number' })),
    ordFvrCostSeq: Type.Optional(Type.String({ maxLength: 20, description: 'order benefit cost sequence' })),
  },
  { $id: 'StaffDcLimIncDecRequest' },
);
export type StaffDcLimIncDecRequest = Static<typeof StaffDcLimIncDecRequest>;

export const StaffDcLimStatRequest = Type.Object(
  { mbrNo: Type.String({ minLength: 1, description: 'member number' }) },
  { $id: 'StaffDcLimStatRequest' },
);

export const StaffDcLimStat = Type.Object(
  {
    mbrNo: Type.String(),
    rmndAmt: Type.Integer({ format: 'int64', description: 'remaining staff discount amount' }),
    limAmt: Type.Integer({ format: 'int64', description: 'total limit amount' }),
  },
  { $id: 'StaffDcLimStat' },
);
export type StaffDcLimStat = Static<typeof StaffDcLimStat>;
