import { Alert, App, Button, Card, Col, Form, Input, Result, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCodegenStatus,
  usePreviewModule,
  useWriteModule,
  type GeneratedFile,
  type ModuleSpec,
  type WriteResult,
} from '../../../api/codegen';
import { ApiError, messageOf } from '../../../api/errors';
import { useAuth } from '../../../auth/AuthContext';
import { ErrorState, LoadingState } from '../../../components/states';
import { showServerErrors } from '../../../form/serverErrors';
import { ColumnsEditor } from './ColumnsEditor';
import { PreviewView } from './PreviewView';
import { fieldPath, sameSpec, specOf, START_VALUES, type SpecValues } from './spec';
import { WrittenModule } from './WrittenModule';

/** The generator is not there at all: its service is not routed (404) or not running (503). */
const isUnavailable = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 503);

/**
 * `/system/codegen` (platform administrators with `system:codegen:preview`): describe a table,
 * preview the service module the generator makes for it, and write it into the project where
 * the server allows it (`CODEGEN_WRITE_ENABLED`) and the caller holds `system:codegen:write`.
 */
export default function CodegenPage() {
  const { t } = useTranslation('systemTools');
  const { modal } = App.useApp();
  const { can } = useAuth();
  const status = useCodegenStatus();
  const [form] = Form.useForm<SpecValues>();
  const preview = usePreviewModule();
  const write = useWriteModule();
  const [current, setCurrent] = useState<ModuleSpec>(() => specOf(START_VALUES));
  const [shown, setShown] = useState<{ spec: ModuleSpec; files: GeneratedFile[] } | null>(null);
  const [written, setWritten] = useState<(WriteResult & { service: string }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (status.isPending) return <LoadingState />;
  if (status.isError) {
    if (isUnavailable(status.error)) {
      return (
        <Card>
          <Result
            status="warning"
            title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{t('codegen.unavailable')}</h1>}
            subTitle={messageOf(status.error)}
            data-testid="codegen-unavailable"
          />
        </Card>
      );
    }
    return <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  }

  /** Field problems on their fields; anything else above the form. */
  const refused = (error: unknown) => setProblem(showServerErrors(form, error, fieldPath));

  const runPreview = async (values: SpecValues) => {
    const spec = specOf(values);
    setProblem(null);
    setWritten(null);
    try {
      const { files } = await preview.mutateAsync(spec);
      setShown({ spec, files });
    } catch (error) {
      setShown(null);
      refused(error);
    }
  };

  const runWrite = async (spec: ModuleSpec) => {
    setProblem(null);
    try {
      const result = await write.mutateAsync(spec);
      setWritten({ ...result, service: spec.service });
      setShown(null);
    } catch (error) {
      refused(error);
    }
  };

  const mayWrite = status.data.write_enabled && can('system:codegen:write');
  const fresh = shown !== null && sameSpec(shown.spec, current);
  const confirmWrite = () => {
    if (!shown) return;
    const directory = status.data.directory ?? '';
    void modal.confirm({
      title: t('codegen.writeTitle', { count: shown.files.length, directory }),
      width: 640,
      content: (
        <>
          <Typography.Paragraph>{t('codegen.writeText')}</Typography.Paragraph>
          <ul
            data-testid="write-paths"
            style={{ maxHeight: 240, overflow: 'auto', paddingLeft: 20 }}
          >
            {shown.files.map((f) => (
              <li key={f.path}>
                <Typography.Text code>{f.path}</Typography.Text>
              </li>
            ))}
          </ul>
        </>
      ),
      okText: t('codegen.writeAction'),
      okButtonProps: { danger: true },
      onOk: () => runWrite(shown.spec),
    });
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('codegen.title')}>
        <Typography.Paragraph type="secondary">{t('codegen.intro')}</Typography.Paragraph>
        <Form<SpecValues>
          form={form}
          layout="vertical"
          initialValues={START_VALUES}
          onValuesChange={(_, all) => setCurrent(specOf(all))}
          onFinish={(values) => void runPreview(values)}
          data-testid="codegen-form"
        >
          <Row gutter={12}>
            <Col xs={24} md={8}>
              <Form.Item
                name="service"
                label={t('codegen.service')}
                extra={t('codegen.serviceHelp')}
                rules={[
                  {
                    required: true,
                    message: t('codegen.fieldRequired', { label: t('codegen.service') }),
                  },
                ]}
              >
                <Input autoComplete="off" spellCheck={false} maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="entity"
                label={t('codegen.entity')}
                extra={t('codegen.entityHelp')}
                rules={[
                  {
                    required: true,
                    message: t('codegen.fieldRequired', { label: t('codegen.entity') }),
                  },
                ]}
              >
                <Input autoComplete="off" spellCheck={false} maxLength={40} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="plural" label={t('codegen.plural')} extra={t('codegen.pluralHelp')}>
                <Input autoComplete="off" spellCheck={false} maxLength={40} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            {t('codegen.columns')}
          </Typography.Title>
          <ColumnsEditor />
          {problem && (
            <Alert type="error" showIcon role="alert" title={problem} style={{ marginTop: 16 }} />
          )}
          <Space wrap style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={preview.isPending}>
              {t('codegen.preview')}
            </Button>
            {mayWrite && (
              <Button
                danger
                disabled={!fresh}
                loading={write.isPending}
                onClick={confirmWrite}
                data-testid="codegen-write"
              >
                {t('codegen.write')}
              </Button>
            )}
          </Space>
          {!status.data.write_enabled && (
            <Alert
              type="info"
              showIcon
              title={t('codegen.writeOff')}
              style={{ marginTop: 16 }}
              data-testid="codegen-write-off"
            />
          )}
          {status.data.write_enabled && !can('system:codegen:write') && (
            <Alert
              type="info"
              showIcon
              title={t('codegen.writeNotAllowed')}
              style={{ marginTop: 16 }}
            />
          )}
        </Form>
      </Card>
      {written && <WrittenModule result={written} />}
      {shown ? (
        <Card
          title={t('codegen.previewTitle', { count: shown.files.length })}
          data-testid="codegen-preview"
        >
          {!fresh && (
            <Alert
              type="warning"
              showIcon
              title={t('codegen.stale')}
              style={{ marginBottom: 12 }}
            />
          )}
          <PreviewView files={shown.files} />
        </Card>
      ) : (
        !written && <Typography.Text type="secondary">{t('codegen.noPreview')}</Typography.Text>
      )}
    </Space>
  );
}
