import { Button, Popconfirm, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** What will happen, naming the record: "Delete the role Auditors?" */
  question: ReactNode;
  /** What the confirming button does: "Delete". */
  action: string;
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  size?: ButtonProps['size'];
  type?: ButtonProps['type'];
  testId?: string;
}

/**
 * A destructive action behind a confirmation that names what it will do; the confirming button
 * shows it is busy until the call has settled.
 */
export function ConfirmButton(props: Props) {
  const { t } = useTranslation('admin');
  return (
    <Popconfirm
      title={props.question}
      okText={props.action}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: props.danger ?? true }}
      onConfirm={props.onConfirm}
      disabled={props.disabled}
    >
      <Button
        size={props.size ?? 'small'}
        type={props.type ?? 'link'}
        danger={props.danger ?? true}
        disabled={props.disabled}
        data-testid={props.testId}
      >
        {props.children}
      </Button>
    </Popconfirm>
  );
}
