/**
 * What the monitor needs from the rest of the platform, fitted in src/start.ts: never another
 * service's tables.
 */

/** A notice to users' inboxes (the system service's `systemInbox`). */
export interface InboxDelivery {
  deliver(notice: {
    tenantId: number;
    userIds: readonly number[];
    category: string;
    title: string;
    body: string;
    link: string | null;
  }): Promise<void>;
}

/** A certificate the system service keeps (edge certificates). */
export interface ExpiringCertificate {
  id: number;
  name: string;
  subject: string;
  /** ISO 8601. */
  not_after: string;
}

/** The system service's certificates. */
export interface CertificateSource {
  /** The certificates whose `not_after` falls within `days` from now (or has passed). */
  expiringWithin(days: number): Promise<ExpiringCertificate[]>;
}

/** A job of some module, as declared (never run by the monitor). */
export interface MonitoredJob {
  name: string;
  /** The period its heartbeat is reported at. */
  intervalSeconds: number;
}

export interface MonitorPorts {
  /** Every service of the platform, in the module list's order. */
  services: readonly string[];
  /**
   * Where the monitor reaches a service: the address it listens on in this process, else
   * `<NAME>_SERVICE_URL`, else its default port on loopback. Asked at each probe, since a
   * service of the same process listens after the monitor is built.
   */
  serviceUrl(name: string): string;
  /** Every job the modules declare that the settings turn on. */
  jobs: readonly MonitoredJob[];
  /** The users among `ids` that exist in the tenant (alert recipients). */
  knownUsers(tenantId: number, ids: readonly number[]): Promise<number[]>;
  /** The active platform administrators, grouped by tenant: who hears of expiring certificates. */
  platformAdmins(): Promise<{ tenantId: number; userIds: number[] }[]>;
  inbox: InboxDelivery;
  certificates: CertificateSource;
}
