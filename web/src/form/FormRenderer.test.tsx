import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n';
import i18n from '../i18n';
import type { FormSchema } from '../api/bpm';
import { FormRenderer } from './FormRenderer';

const schema: FormSchema = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'input', required: true },
    { key: 'cost', label: 'Cost', type: 'amount', max: 100 },
    { key: 'secret', label: 'Secret', type: 'input' },
  ],
};

function Harness({ onFinish }: { onFinish: (v: unknown) => void }) {
  return (
    <Form onFinish={onFinish}>
      <FormRenderer schema={schema} hidden={['secret']} />
      <Button htmlType="submit">go</Button>
    </Form>
  );
}

afterEach(cleanup);

describe('FormRenderer', () => {
  it('labels every shown field, hides hidden ones, and shows the server rules as messages', async () => {
    await i18n.changeLanguage('en');
    const submitted: unknown[] = [];
    const { container } = render(<Harness onFinish={(v) => submitted.push(v)} />);
    const submit = () => fireEvent.submit(container.querySelector('form')!);
    expect(screen.getByLabelText('Reason')).toBeTruthy();
    expect(screen.getByLabelText('Cost')).toBeTruthy();
    expect(screen.queryByLabelText('Secret')).toBeNull();

    fireEvent.change(screen.getByLabelText('Cost'), { target: { value: '100.001' } });
    await act(async () => {
      submit();
    });
    expect(await screen.findByText('Reason is required')).toBeTruthy();
    expect(await screen.findByText('Cost is not in the right format')).toBeTruthy();
    expect(submitted).toEqual([]);

    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'trip' } });
    fireEvent.change(screen.getByLabelText('Cost'), { target: { value: '100.01' } });
    await act(async () => {
      submit();
    });
    expect(await screen.findByText(/Cost is out of range/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Cost'), { target: { value: '99.5' } });
    await act(async () => {
      submit();
    });
    await waitFor(() => expect(submitted).toEqual([{ reason: 'trip', cost: '99.5' }]));
  });
});
