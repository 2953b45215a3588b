import { Collapse, Descriptions, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemCalls, useSystemMutation, type Template } from '../../../api/systemAdmin';
import { FormModal } from '../../admin/shared/FormModal';
import { placeholderOf, unknownPlaceholders } from './placeholders';
import { useTemplateWords } from './useTemplateWords';

interface Values {
  title: string;
  body: string;
}

/**
 * Edits one template in one language: its title and text, with the placeholders it may use
 * (any other is refused before saving, as the server would) and its default text to compare.
 */
export function TemplateForm({ template, onClose }: { template: Template; onClose: () => void }) {
  const { t } = useTranslation('system');
  const words = useTemplateWords();
  const [form] = Form.useForm<Values>();
  const update = useSystemMutation(systemCalls.updateTemplate, 'templates');
  const known = async (_: unknown, text: string | undefined) => {
    const unknown = unknownPlaceholders(text ?? '', template.placeholders);
    if (unknown.length > 0)
      throw new Error(t('templates.unknownPlaceholders', { names: unknown.join(', ') }));
  };
  const rules = (label: string, max: number) => [
    { required: true, whitespace: true, message: t('common.required', { label }) },
    { max, message: t('common.tooLong', { max }) },
    { validator: known },
  ];
  return (
    <FormModal<Values>
      title={t('templates.editTitle', { key: template.key, lang: words.lang(template.lang) })}
      form={form}
      initialValues={{ title: template.title, body: template.body }}
      save={(body) =>
        update.mutateAsync({
          key: template.key,
          lang: template.lang,
          body: { title: body.title.trim(), body: body.body.trim() },
        })
      }
      saving={update.isPending}
      onClose={onClose}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('templates.key')}>{words.about(template)}</Descriptions.Item>
        <Descriptions.Item label={t('templates.placeholders')}>
          <Space size={4} wrap data-testid="template-placeholders">
            {template.placeholders.map((p) => (
              <Typography.Text key={p} code copyable>
                {placeholderOf(p)}
              </Typography.Text>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Form.Item
        name="title"
        label={t('templates.titleField')}
        extra={t('templates.titleHelp')}
        rules={rules(t('templates.titleField'), 200)}
      >
        <Input autoComplete="off" maxLength={200} />
      </Form.Item>
      <Form.Item name="body" label={t('templates.body')} rules={rules(t('templates.body'), 10_000)}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={10_000} />
      </Form.Item>
      <Collapse
        size="small"
        items={[
          {
            key: 'default',
            label: t('templates.defaultText'),
            children: (
              <>
                <Typography.Paragraph strong>{template.default_title}</Typography.Paragraph>
                <Typography.Paragraph style={{ whiteSpace: 'pre-line', marginBottom: 0 }}>
                  {template.default_body}
                </Typography.Paragraph>
              </>
            ),
          },
        ]}
      />
    </FormModal>
  );
}
