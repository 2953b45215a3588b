import { FileOutlined } from '@ant-design/icons';
import { Button, Col, Row, Space, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GeneratedFile } from '../../../api/codegen';
import { CopyButton } from '../../admin/shared/CopyButton';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/**
 * The generated files: their list, and the chosen one's content in a monospace box that scrolls
 * (and takes focus to scroll by keyboard), with a copy button.
 */
export function PreviewView({ files }: { files: GeneratedFile[] }) {
  const { t } = useTranslation('systemTools');
  const { token } = theme.useToken();
  const [chosen, setChosen] = useState(0);
  const file = files[Math.min(chosen, files.length - 1)];
  if (!file) return null;
  return (
    <Row gutter={[16, 12]}>
      <Col xs={24} lg={8}>
        <div
          role="group"
          aria-label={t('codegen.fileList')}
          data-testid="generated-files"
          style={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          {files.map((f, i) => (
            <Button
              key={f.path}
              type={i === chosen ? 'primary' : 'text'}
              ghost={i === chosen}
              icon={<FileOutlined />}
              aria-current={i === chosen ? 'true' : undefined}
              onClick={() => setChosen(i)}
              style={{
                display: 'flex',
                width: '100%',
                justifyContent: 'flex-start',
                height: 'auto',
                padding: '4px 8px',
                whiteSpace: 'normal',
                wordBreak: 'break-all',
                textAlign: 'left',
                fontFamily: MONO,
                fontSize: 12,
              }}
            >
              {f.path}
            </Button>
          ))}
        </div>
      </Col>
      <Col xs={24} lg={16}>
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
          <Typography.Text strong style={{ fontFamily: MONO, wordBreak: 'break-all' }}>
            {file.path}
          </Typography.Text>
          <CopyButton
            text={file.content}
            label={t('codegen.copyFile', { path: file.path })}
            size="small"
            testId="copy-file"
          />
        </Space>
        <pre
          role="region"
          aria-label={t('codegen.code', { path: file.path })}
          tabIndex={0}
          data-testid="generated-code"
          style={{
            margin: 0,
            maxHeight: 520,
            overflow: 'auto',
            padding: 12,
            fontFamily: MONO,
            fontSize: 12,
            lineHeight: 1.5,
            color: token.colorText,
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
          }}
        >
          {file.content}
        </pre>
      </Col>
    </Row>
  );
}
