import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WriteResult } from '../../../api/codegen';

/** What a write made: the directory, each path, and what to do next. */
export function WrittenModule({ result }: { result: WriteResult & { service: string } }) {
  const { t } = useTranslation('systemTools');
  return (
    <Alert
      type="success"
      showIcon
      data-testid="codegen-written"
      title={t('codegen.written', { service: result.service, directory: result.directory })}
      description={
        <>
          <ul style={{ paddingLeft: 20, margin: '8px 0' }}>
            {result.paths.map((p) => (
              <li key={p}>
                <Typography.Text code>{p}</Typography.Text>
              </li>
            ))}
          </ul>
          <Typography.Text>{t('codegen.writtenNext', { service: result.service })}</Typography.Text>
        </>
      }
    />
  );
}
