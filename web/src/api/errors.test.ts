import type { FormInstance } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { showServerErrors } from '../form/serverErrors';
import i18n from '../i18n';
import { ApiError, messageOf } from './errors';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('messageOf', () => {
  it("shows a code's text in the reader's language, never the server's lowercase English", async () => {
    const error = new ApiError(401, 40103, 'wrong username or password', null);
    await i18n.changeLanguage('en');
    expect(messageOf(error)).toBe('Wrong username or password.');
    await i18n.changeLanguage('zh-CN');
    expect(messageOf(error)).toBe('用户名或密码错误。');
  });

  it("falls back to the server's message for a code the console does not know", () => {
    expect(messageOf(new ApiError(418, 41899, 'a teapot', null))).toBe('a teapot');
  });

  it("shows an administrator's text for the code as they wrote it, in every language", async () => {
    const error = new ApiError(409, 40900, 'Someone else changed this first', null, true);
    expect(messageOf(error)).toBe('Someone else changed this first');
    await i18n.changeLanguage('zh-CN');
    expect(messageOf(error)).toBe('Someone else changed this first');
  });

  it('says the server could not be reached when the request never got an answer', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(messageOf(new TypeError('Failed to fetch'))).toBe('无法连接服务器。');
  });
});

/** A form holding the given fields, recording what is set on them. */
function formWith(values: Record<string, unknown>) {
  const set: { name: (string | number)[]; errors: string[] }[] = [];
  const form = {
    getFieldsValue: () => values,
    getFieldInstance: () => undefined,
    setFields: (fields: typeof set) => set.push(...fields),
  } as unknown as FormInstance;
  return { form, set };
}

describe('showServerErrors', () => {
  const invalid = (fields: { field: string; rule: string; message: string }[]) =>
    new ApiError(400, 40001, 'validation failed', { fields });

  it('puts every problem on its field and shows no banner repeating them', () => {
    const { form, set } = formWith({ amount: 1, reason: '' });
    const banner = showServerErrors(
      form,
      invalid([
        { field: 'form.amount', rule: 'max', message: 'too large' },
        { field: 'reason', rule: 'required', message: 'required' },
      ]),
    );
    expect(banner).toBeNull();
    expect(set).toEqual([
      { name: ['amount'], errors: ['too large'] },
      { name: ['reason'], errors: ['required'] },
    ]);
  });

  it('shows a banner only for problems no field of the form holds', () => {
    const { form } = formWith({ amount: 1 });
    const banner = showServerErrors(
      form,
      invalid([
        { field: 'amount', rule: 'max', message: 'too large' },
        { field: 'approvers', rule: 'required', message: 'pick an approver' },
      ]),
    );
    expect(banner).toBe('Some fields need attention. pick an approver');
  });
});
