import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Progress, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploadFile } from '../../../api/files';
import { uploadProblem } from './fileErrors';

/**
 * Uploads one file to the tenant's storage with its progress; the list and the usage are read
 * again after it. A refusal (too large, over quota) goes to `onProblem`, naming the file.
 */
export function UploadButton({ onProblem }: { onProblem: (text: string | null) => void }) {
  const { t } = useTranslation('systemTools');
  const { message } = App.useApp();
  const upload = useUploadFile();
  const [progress, setProgress] = useState<{ name: string; percent: number } | null>(null);

  const send = async (file: File) => {
    onProblem(null);
    setProgress({ name: file.name, percent: 0 });
    try {
      await upload.mutateAsync({
        file,
        onProgress: (percent) => setProgress({ name: file.name, percent }),
      });
      void message.success(t('files.uploaded', { name: file.name }));
    } catch (error) {
      onProblem(uploadProblem(t, file.name, error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Space wrap>
      <Upload
        showUploadList={false}
        multiple={false}
        disabled={progress !== null}
        customRequest={({ file }) => void send(file as File)}
      >
        <Button
          type="primary"
          icon={<UploadOutlined />}
          loading={progress !== null}
          data-testid="upload-file"
        >
          {t('files.upload')}
        </Button>
      </Upload>
      {progress && (
        <span role="status" style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          {t('files.uploading', { name: progress.name, percent: progress.percent })}
          <Progress
            percent={progress.percent}
            size="small"
            showInfo={false}
            style={{ width: 120, margin: 0 }}
            aria-label={t('files.uploading', progress)}
          />
        </span>
      )}
    </Space>
  );
}
