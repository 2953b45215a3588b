import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Copies text to the clipboard: the Clipboard API where the page may use it (HTTPS, localhost),
 * else the older copy command over a hidden field (a console reached by plain HTTP on a LAN).
 */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  field.select();
  const done = document.execCommand('copy');
  field.remove();
  if (!done) throw new Error('copy refused');
}

interface Props {
  text: string;
  /** What is copied, for screen readers and the tooltip-less icon: "Copy the secret". */
  label: string;
  /** Shown next to the icon; none: an icon button named by `label`. */
  children?: React.ReactNode;
  size?: ButtonProps['size'];
  testId?: string;
}

/** A button that copies `text`, says so for two seconds, and says when the browser refused. */
export function CopyButton({ text, label, children, size, testId }: Props) {
  const { t } = useTranslation('admin');
  const { message } = App.useApp();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await copyText(text);
      setCopied(true);
      void message.success(t('common.copied'));
    } catch {
      void message.error(t('common.copyFailed'));
    }
  };
  return (
    <Button
      size={size}
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      aria-label={children ? undefined : label}
      title={label}
      onClick={() => void copy()}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
