import { AppError, type AuthPrincipal } from '@bo/service-kit';

/**
 * A token with a supplier sees only that supplier: naming another one is refused (403), naming
 * none reads its own. Tokens without a supplier pass the requested value through.
 */
export function supplierOf(auth: AuthPrincipal | undefined, requested: string | undefined): string | undefined {
  if (!auth?.entrNo) return requested;
  if (requested !== undefined && requested !== auth.entrNo) throw new AppError('SUPPLIER_SCOPE');
  return auth.entrNo;
}

/**
 * The category and payment-method aggregates carry no supplier column, so a supplier's share
 * cannot be read from them; rather than show platform-wide figures to a supplier, refuse.
 */
export function refuseSupplierToken(auth: AuthPrincipal | undefined, report: string): void {
  if (auth?.entrNo)
    throw new AppError('SUPPLIER_SCOPE', { message: `The ${report} statistics are platform-wide; a supplier token may not read them` });
}
