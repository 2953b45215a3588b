/**
 * TEMPORARY: adapters for the monitor's ports whose providers (the system service's inbox and
 * certificates) are being built on another branch. src/start.ts fits them; the merge replaces
 * them with `systemInbox(kernel)` and the system service's certificates, and deletes this file.
 */
import type { Kernel } from './platform/kernel.js';
import type { CertificateSource, InboxDelivery } from './services/monitor/index.js';

/**
 * Until the system service's `systemInbox(kernel)` is merged: logs each notice
 * instead of delivering it. The merge replaces this adapter with `systemInbox(kernel)`.
 */
export function loggingInbox(kernel: Kernel): InboxDelivery {
  const logger = kernel.logger.child({ adapter: 'temporary-inbox' });
  return {
    async deliver(notice) {
      logger.warn(
        { tenant_id: notice.tenantId, user_ids: notice.userIds, category: notice.category },
        `inbox notice not delivered (temporary adapter): ${notice.title}`,
      );
    },
  };
}

/**
 * Until the system service's certificates are merged: no certificate is known, so
 * none expires. The merge replaces this adapter with the system service's.
 */
export const noCertificates: CertificateSource = { expiringWithin: async () => [] };
