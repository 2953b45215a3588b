import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePeople } from '../api/people';
import { personLabel } from '../form/personLabel';

/** A user id shown as the person's name (looked up in the people directory, batched). */
export function PersonName({ id }: { id: number }) {
  const { t } = useTranslation();
  const people = usePeople([id]);
  return <>{personLabel(t, people, id)}</>;
}

/** "on behalf of <name>": the task came to its holder as the stand-in of someone away. */
export function OnBehalfOfTag({ id }: { id: number }) {
  const { t } = useTranslation();
  const people = usePeople([id]);
  return (
    <Tag color="processing" data-testid="on-behalf-of">
      {t('list.onBehalfOf', { name: personLabel(t, people, id) })}
    </Tag>
  );
}

/** "from <name>": the task was delegated to its holder by this person. */
export function DelegatedFromTag({ id }: { id: number }) {
  const { t } = useTranslation();
  const people = usePeople([id]);
  return <Tag>{t('list.delegatedFrom', { name: personLabel(t, people, id) })}</Tag>;
}
