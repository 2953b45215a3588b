import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** An address the console has no page for (it used to send the user to the todo list). */
export default function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('notFound.title')}</h1>}
      subTitle={t('notFound.text')}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.home')}</Button>
        </Link>
      }
      data-testid="not-found-page"
    />
  );
}
