/** The platform's readiness as the gateway reports it (`GET /api/v1/health/ready`). */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from './errors';

/** Each service's state; `status` is `ready` when every service is. */
export interface PlatformHealth {
  status: 'ready' | 'degraded';
  services: Record<string, { status: string }>;
}

/**
 * Asked with a plain fetch: a degraded platform answers 503 with the same body, which is the
 * answer here, not a failure to show.
 */
async function fetchHealth(): Promise<PlatformHealth> {
  const res = await fetch('/api/v1/health/ready');
  const body = (await res.json().catch(() => null)) as {
    code?: number;
    message?: string;
    data?: PlatformHealth;
  } | null;
  if (body?.data?.services) return body.data;
  throw new ApiError(res.status, body?.code ?? res.status * 100, body?.message ?? '', null);
}

/** The platform's health for the administrators' dashboard, every minute. */
export function usePlatformHealth(enabled: boolean) {
  return useQuery({
    queryKey: ['health'],
    queryFn: fetchHealth,
    refetchInterval: 60_000,
    enabled,
  });
}
