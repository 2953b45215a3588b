import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A page the caller may not use, reached by a link or an address: says so, shows no data. */
export default function Forbidden() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('forbidden.title')}</h1>}
      subTitle={t('forbidden.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
      data-testid="forbidden-page"
    />
  );
}
