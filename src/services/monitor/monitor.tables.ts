import type { ColumnType, Generated, Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** The monitor service's tables (migrations 0008 and 0027); only its code reads them. */
export type MonitorTables = {
  /** Written by every job through src/platform/jobs (heartbeat.ts); read here. */
  mon_job_heartbeats: {
    name: string;
    last_run_at: Date;
    interval_seconds: number;
    status: 'ok' | 'error';
    message: string | null;
  };
  mon_metric_samples: {
    id: Generated<number>;
    metric: string;
    /** '' for a platform-wide metric. */
    service: string;
    value: number;
    sampled_at: Timestamp;
  };
  mon_sampler_state: { id: number; last_round_at: Timestamp };
  mon_counter_state: {
    service: string;
    requests: number;
    errors: number;
    scraped_at: Timestamp;
  };
  mon_alert_rules: {
    id: Generated<number>;
    tenant_id: number;
    name: string;
    metric: string;
    service: string | null;
    operator: 'gt' | 'lt';
    threshold: number;
    duration_seconds: number;
    recipient_user_ids: ColumnType<number[], string, string>;
    enabled: boolean;
    created_by: number;
    created_at: Generated<Date>;
    updated_at: Timestamp;
  };
  mon_alerts: {
    id: Generated<number>;
    kind: 'rule' | 'certificate_expiry';
    rule_id: number | null;
    certificate_id: number | null;
    title: string;
    metric: string | null;
    service: string | null;
    status: 'firing' | 'resolved';
    value: number | null;
    fired_at: Timestamp;
    resolved_at: Timestamp | null;
    notified_at: Timestamp | null;
  };
};

export type MonitorDb = Kysely<MonitorTables>;
