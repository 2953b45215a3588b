import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useChainVerification } from '../../../api/audit';
import { messageOf } from '../../../api/errors';

/** Whether the business audit's hash chain is intact, or where it first breaks and why. */
export function ChainVerification() {
  const { t } = useTranslation('audit');
  const verify = useChainVerification();
  const again = (
    <Button size="small" loading={verify.isFetching} onClick={() => void verify.refetch()}>
      {t('business.verifyAgain')}
    </Button>
  );
  const style = { marginBottom: 16 };
  if (verify.isPending) {
    return <Alert type="info" title={t('business.verifyTitle')} style={style} showIcon />;
  }
  if (verify.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('business.verifyTitle')}
        description={messageOf(verify.error)}
        action={again}
        style={style}
      />
    );
  }
  const { ok, checked, first_broken: broken } = verify.data;
  return (
    <Alert
      data-testid="chain-verification"
      type={ok ? 'success' : 'error'}
      showIcon
      title={ok ? t('business.verifyOk', { checked }) : t('business.verifyBroken', { checked })}
      description={
        broken && (
          <>
            <div>
              {broken.id === null
                ? t('business.brokenAtNoId', { seq: broken.seq })
                : t('business.brokenAt', { seq: broken.seq, id: broken.id })}
            </div>
            <div>{broken.reason}</div>
          </>
        )
      }
      action={again}
      style={style}
    />
  );
}
