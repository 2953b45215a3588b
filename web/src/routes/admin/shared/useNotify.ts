import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';

/**
 * Runs a change and says how it went: the success text, or the server's reason for a refusal
 * (the call's failure is shown, never thrown at the page). Answers whether it succeeded.
 */
export function useNotify() {
  const { message } = App.useApp();
  const { t } = useTranslation('admin');
  return async function run<R>(call: () => Promise<R>, success?: string): Promise<R | undefined> {
    try {
      const result = await call();
      void message.success(success ?? t('common.saved'));
      return result;
    } catch (error) {
      void message.error(messageOf(error));
      return undefined;
    }
  };
}
