import { useTranslation } from 'react-i18next';
import {
  approvalsAdminCalls,
  useApprovalsAdminMutation,
  type AdminInstance,
} from '../../../api/approvalsAdmin';
import { useNotify } from '../../admin/shared/useNotify';

/** Force-terminates a request and says so by its title (the server's reason when refused). */
export function useTerminate() {
  const { t } = useTranslation('approvals');
  const notify = useNotify();
  const terminate = useApprovalsAdminMutation(approvalsAdminCalls.terminate);
  return (instance: AdminInstance) =>
    notify(
      () => terminate.mutateAsync({ id: instance.id }),
      t('instances.terminated', { title: instance.title }),
    );
}
